import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/fixtures';
import { modal, submitLogin } from './support/page-helpers';
import { expect, test } from './support/shared-account';

// axe (WCAG 2.0/2.1 A and AA) on every page of the welcome layout, on the profile with each
// modal open, on the sign-in page showing form errors and an error modal, and on the 404 page,
// with JavaScript on (Ark UI dialogs) and off (server-rendered dialogs).

const WELCOME_PAGES: Array<[string, string]> = [
  ['/login', 'Sign in'],
  ['/register', 'Create an account'],
  ['/otp?email=a@b.co', 'Check your e-mail'],
  ['/forgot-password', 'Forgot your password?'],
  ['/reset-password', 'Choose a new password'],
  ['/finish-profile-creation', 'Finish your profile'],
  ['/oauth', 'Social sign-in'],
];

async function open(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

test.describe('as a visitor', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  for (const [path, heading] of WELCOME_PAGES) {
    test(`welcome page ${path}`, async ({ page }) => {
      await open(page, path, heading);
      await expectNoAxeViolations(page);
    });
  }

  test('sign-in page with form errors', async ({ page }) => {
    await submitLogin(page, 'nobody-at-all@example.test', 'not a real password');
    await expect(page.getByRole('alert')).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('sign-in page with the error modal', async ({ page }) => {
    await page.goto('/oauth/testidp?code=x&state=bogus');
    await expect(modal(page, 'Social sign-in failed')).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('404 page', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe('signed in', () => {
  test('finish-profile page of a signed-in user', async ({ page }) => {
    await open(page, '/finish-profile-creation', 'Your profile is complete');
    await expectNoAxeViolations(page);
  });

  test('profile without a modal', async ({ page }) => {
    await open(page, '/profile', 'Profile');
    await expectNoAxeViolations(page);
  });

  test('profile with the prompt modal open', async ({ page }) => {
    await page.goto('/profile?modal=change-name');
    await expect(modal(page, 'Change your name')).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('profile with the confirm modal open', async ({ page }) => {
    await page.goto('/profile?modal=delete-account');
    await expect(modal(page, 'Delete your account?')).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('profile with the info modal open', async ({ page, account }) => {
    await page.goto('/profile?modal=change-name');
    const prompt = modal(page, 'Change your name');
    await prompt.getByLabel('Full name').fill(account.name);
    await prompt.getByRole('button', { name: 'OK', exact: true }).click();
    await expect(modal(page, 'Name changed')).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe('layout at 1366 and 390 px wide', () => {
  test.setTimeout(180_000);

  async function pages(page: Page): Promise<string[]> {
    const r = await page.request.get('/api/v1/companies?query=&limit=1');
    const { results } = (await r.json()) as { results: { permaticker: number }[] };
    const p = results[0].permaticker;
    return [
      '/',
      '/company?query=a',
      `/company/${p}/overview`,
      `/company/${p}/chart`,
      `/company/${p}/financial?period=quarterly`,
      `/company/${p}/dividend`,
      `/company/${p}/valuation`,
      '/data-browser',
      `/data-browser/${p}/revenue_ttm`,
      '/screener?r=market_cap+%3E+1B&r=pe_ttm+%3C+40',
      '/screener/columns',
      '/screener/manage',
      '/watchlist',
      '/backtest',
      '/profile',
      '/no-such-page',
    ];
  }

  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    test(`no page scrolls sideways at ${width} px; the header is one row`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      for (const path of await pages(page)) {
        await page.goto(path);
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        expect(scrollWidth, `width of ${path}`).toBeLessThanOrEqual(innerWidth);
        const headerHeight = await page.locator('.app-header').evaluate((el) => el.getBoundingClientRect().height);
        expect(headerHeight, `header height on ${path}`).toBeLessThan(70);
      }
    });
  }

  test('at 390 px the navigation is a menu that opens without JavaScript; wide tables scroll in their own region', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const paths = await pages(page);
    await page.goto(paths[4]);
    const main = page.getByRole('navigation', { name: 'Main' });
    await expect(main).toBeHidden();
    await page.locator('.nav-menu > summary').click();
    await expect(main.getByRole('link', { name: 'Screener', exact: true })).toBeVisible();
    await main.getByRole('link', { name: 'Watchlist' }).click();
    await expect(page).toHaveURL(/\/watchlist$/);

    await page.goto(paths[4]);
    const region = page.getByRole('region', { name: 'Financial statement table' });
    await expect(region).toHaveAttribute('tabindex', '0');
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await region.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // Text boxes are tall enough for their text.
    const inputHeight = await page.getByLabel('As of date').evaluate((el) => el.getBoundingClientRect().height);
    expect(inputHeight).toBeGreaterThanOrEqual(32);
    await expectNoAxeViolations(page);
  });
});
