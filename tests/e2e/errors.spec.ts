import { expect, test } from './support/fixtures';
import { control, modal } from './support/page-helpers';

// The error page and the error modal, reached the way a user reaches
// them: a mistyped address, and a social sign-in that comes back with a forged state.

test('an unknown path shows the 404 page with its path and the title "Page Not Found"', async ({ page }) => {
  const path = '/no-such-page/anywhere';
  const response = await page.goto(`${path}?x=1`);
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle(/^Page Not Found/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
  await expect(page.getByText(`Page not found: ${path}`, { exact: true })).toBeVisible();
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page.getByText(/Internal Server Error/)).toHaveCount(0);
  // Drawn inside the layout: the main navigation is there to go on from.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Data browser' })).toBeVisible();
  // A way back that works without JavaScript.
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).not.toHaveURL(/no-such-page/);
});

test('an unknown social sign-in provider is a 404 too', async ({ page }) => {
  const response = await page.goto('/oauth/no-such-provider');
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle(/^Page Not Found/);
  await expect(page.getByText('Page not found: /oauth/no-such-provider', { exact: true })).toBeVisible();
});

test('a failed social sign-in lands on /login with the error modal, which closes', async ({ page }) => {
  // A callback whose state was never issued by this browser: the app must refuse it.
  await page.goto('/oauth/testidp?code=x&state=bogus');
  await expect(page).toHaveURL(/\/login$/);

  const dialog = modal(page, 'Social sign-in failed');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveRole('alertdialog');
  await expect(dialog.getByRole('heading', { name: 'Social sign-in failed' }).or(dialog.getByText('Social sign-in failed'))).toBeVisible();
  // The error's detail text is shown, not an empty box or a raw object.
  const text = (await dialog.innerText()).replace('Social sign-in failed', '').trim();
  expect(text.length, 'the modal explains what went wrong').toBeGreaterThan(10);
  expect(text).not.toMatch(/\[object Object\]|\{"detail"/);

  await control(dialog, 'Close modal').click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // Shown once: the flash is used up, a reload shows the plain sign-in page.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(modal(page, 'Social sign-in failed')).toHaveCount(0);
});
