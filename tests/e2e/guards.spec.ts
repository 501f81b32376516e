import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import type { Mailbox } from './support/mailbox';
import { codeFromMail, javaScriptOn, RESET_MAIL, userInitials } from './support/page-helpers';

// The route rules (app/services/auth/access-rules.ts) as a browser meets them, for each kind of caller:
// guest (an automatic guest token), a user without has_access, a user with it, a superuser.
// One test per caller signs in once and walks through every rule. The walks are page loads the
// server redirects (the same with JavaScript on and off): they run in the js project only. The
// superuser's, which also follows a link in the header, runs in both.

const serverOnly = 'runs in the js project only: page loads the server redirects, once is enough';

/** The pages of the welcome layout: no authentication needed, so everyone reaches them. */
const WELCOME_PAGES = [
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/otp?email=a%40b.co',
  '/finish-profile-creation',
  '/oauth',
];

/** Opens `path` and expects to end on `expected` (path and query) with a page that loaded. */
async function expectLandsOn(page: Page, path: string, expected: string): Promise<void> {
  await test.step(`${path} → ${expected}`, async () => {
    const response = await page.goto(path);
    expect(response?.status(), `status of ${page.url()}`).toBe(200);
    const url = new URL(page.url());
    expect(url.pathname + url.search, `where ${path} leads`).toBe(expected);
  });
}

async function expectStaysOn(page: Page, paths: string[]): Promise<void> {
  for (const path of paths) await expectLandsOn(page, path, path);
}

test('a guest browses the data browser only', async ({ page }) => {
  test.skip(!javaScriptOn(), serverOnly);
  await expectLandsOn(page, '/data-browser', '/data-browser');
  await expect(page.getByRole('heading', { name: 'Data browser', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect(userInitials(page)).toHaveCount(0);

  for (const path of ['/', '/screener', '/screener/manage', '/watchlist', '/backtest?screener_id=1']) {
    await expectLandsOn(page, path, '/data-browser');
  }
  // /admin sends non-superusers to /, which sends guests on to /data-browser.
  await expectLandsOn(page, '/admin', '/data-browser');
  // /backtest without a screener or backtest goes to /screener first (page validation).
  await expectLandsOn(page, '/backtest', '/data-browser');
  // The profile belongs to an account: a guest is asked to sign in.
  await expectLandsOn(page, '/profile', '/login?redirectTo=%2Fprofile');
  await expectStaysOn(page, WELCOME_PAGES);
});

test('a visitor gets a guest token on the first request', async ({ page, context }) => {
  test.skip(!javaScriptOn(), serverOnly);
  await expectLandsOn(page, '/data-browser', '/data-browser');
  const session = (await context.cookies()).filter((c) => c.httpOnly && c.value !== '');
  expect(session.length, 'a session cookie was set on the first visit').toBeGreaterThan(0);
  // The guest session works from then on: no sign-in page, the data browser answers.
  await expectLandsOn(page, '/', '/data-browser');
});

test('a signed-in user without access reaches only the allowed pages', async ({ page, createUser, signIn }) => {
  test.skip(!javaScriptOn(), serverOnly);
  const user = await createUser({ access: false, name: 'No Access Yet' });
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/finish-profile-creation$/);

  await expectStaysOn(page, ['/profile', '/data-browser', ...WELCOME_PAGES]);
  await expect(userInitials(page)).toHaveCount(0); // the welcome layout has no header
  await page.goto('/profile');
  await expect(userInitials(page)).toHaveText('NAY');
  await expect(page.getByRole('link', { name: 'Finish your profile to get full access' })).toBeVisible();

  for (const path of ['/', '/screener', '/screener/manage', '/watchlist', '/backtest?screener_id=1', '/backtest?backtest_id=7']) {
    await expectLandsOn(page, path, '/data-browser');
  }
  await expectLandsOn(page, '/admin', '/data-browser');
  await expectLandsOn(page, '/backtest', '/data-browser');
});

test('a user with access reaches everything but the admin page; /backtest needs a screener or backtest', async ({
  page,
  createUser,
  signIn,
}) => {
  test.skip(!javaScriptOn(), serverOnly);
  const user = await createUser({ access: true, name: 'Full Access' });
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/$/);

  await expectStaysOn(page, ['/', '/screener', '/screener/manage', '/watchlist', '/profile', '/data-browser', ...WELCOME_PAGES]);
  // Reached, not redirected: the page itself says there is no such screener or backtest.
  for (const path of ['/backtest?screener_id=12', '/backtest?backtest_id=34']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path);
    await expect(page.getByText(/(Screener|Backtest) not found/)).toBeVisible();
  }

  await expectLandsOn(page, '/admin', '/');
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await expectLandsOn(page, '/backtest', '/screener');
  await expectLandsOn(page, '/backtest?screener_id=', '/screener');
  await expectLandsOn(page, '/backtest?other=1', '/screener');
});

test('a superuser reaches the admin page', async ({ page, createUser, signIn }) => {
  const user = await createUser({ access: true, superuser: true, name: 'Super User' });
  await signIn(page, user.email, user.password);

  await expectLandsOn(page, '/admin', '/admin');
  await expect(page.getByRole('heading', { name: 'Administration' })).toBeVisible();
  await expect(page.getByText(`Signed in as superuser ${user.email}`)).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expectStaysOn(page, ['/', '/screener', '/profile']);
  await expectLandsOn(page, '/backtest', '/screener');
});

test('the company pages: guests go to the data browser, signed-in users without access may enter', async ({ page, createUser, signIn }) => {
  test.skip(!javaScriptOn(), serverOnly);
  await expectLandsOn(page, '/company', '/data-browser');
  await expectLandsOn(page, '/company/AAPL', '/data-browser');
  const user = await createUser({ access: false });
  await signIn(page, user.email, user.password);
  await expectLandsOn(page, '/company', '/company');
});

/** Resets the password through the JSON API: every token of the account is revoked. */
async function resetPasswordByApi(request: APIRequestContext, mailbox: Mailbox, email: string): Promise<void> {
  const sentAfter = Date.now();
  const asked = await request.post('/api/v1/auth/reset-password', { data: { email } });
  expect(asked.status()).toBeLessThan(300);
  const token = await codeFromMail(mailbox, email, RESET_MAIL, sentAfter);
  const password = 'a new password after reset';
  const confirmed = await request.post('/api/v1/auth/reset-password-confirm', {
    data: { email, token, password, password_confirmation: password },
  });
  expect(confirmed.status(), await confirmed.text()).toBeLessThan(300);
}

test('a session whose token was revoked is signed out and sent to the data browser', async ({
  page,
  createUser,
  signIn,
  mailbox,
  playwright,
  baseURL,
}) => {
  test.skip(!javaScriptOn(), serverOnly);
  const user = await createUser({ access: true, name: 'Revoked Token' });
  await signIn(page, user.email, user.password);
  await expect(userInitials(page)).toHaveText('RT');

  const api = await playwright.request.newContext({ baseURL });
  try {
    await resetPasswordByApi(api, mailbox, user.email);
  } finally {
    await api.dispose();
  }

  await expectLandsOn(page, '/screener', '/data-browser');
  await expect(userInitials(page)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});
