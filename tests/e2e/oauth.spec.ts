import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { E2E_OIDC_ISSUER, E2E_OIDC_PROVIDER_ID } from './support/env';
import { expect, expectNoAxeViolations, test } from './support/fixtures';
import { javaScriptOn } from './support/page-helpers';

// Social sign-in against a real OpenID Connect provider (oidc-provider, started by
// tests/support/e2e-servers.ts), in both projects: JavaScript on and off. What only the server
// decides, with pages the other tests already show in both projects (a refused state, a second
// sign-in finding the same account, an off-site redirectTo, an unknown provider's 404, whose page
// errors.spec.ts shows), runs in the js project only.

const serverOnly = 'runs in the js project only: it tests the server, once is enough';

const PROVIDER_BUTTON = 'Continue with Test IdP';
const tag = () => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/** Signs in at the provider's own (development) pages, consenting when it asks. */
async function signInAtProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${E2E_OIDC_ISSUER}/interaction/`));
  const loginPage = page.url();
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL((url) => url.href !== loginPage);
  const consent = page.getByRole('button', { name: 'Continue' });
  if (new URL(page.url()).origin === E2E_OIDC_ISSUER && (await consent.isVisible())) await consent.click();
  await page.waitForURL((url) => url.origin !== E2E_OIDC_ISSUER);
}

async function startAtOAuthPage(page: Page, redirectTo?: string) {
  await page.goto(redirectTo ? `/oauth?${new URLSearchParams({ redirectTo })}` : '/oauth');
  await page.getByRole('link', { name: PROVIDER_BUTTON }).click();
}

async function expectSignInFailedModal(page: Page, detail: RegExp) {
  await expect(page).toHaveURL(/\/login(\?|$)/);
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Social sign-in failed');
  await expect(dialog).toContainText(detail);
}

test('/oauth offers the configured provider and has no axe violations', async ({ page }) => {
  await page.goto('/oauth');
  await expect(page).toHaveTitle(/Social sign-in/);
  await expect(page.getByRole('heading', { level: 1, name: 'Social sign-in' })).toBeVisible();
  await expect(page.getByRole('link', { name: PROVIDER_BUTTON })).toHaveAttribute('href', `/oauth/${E2E_OIDC_PROVIDER_ID}`);
  await expectNoAxeViolations(page);
});

test('a new account signs in at the provider, then finishes its profile', async ({ page }) => {
  const login = `ada.lovelace+${tag()}@example.test`;
  await startAtOAuthPage(page);
  await signInAtProvider(page, login);
  // A user without has_access is sent to /finish-profile-creation.
  await expect(page).toHaveURL(/\/finish-profile-creation(\?|$)/);
  await page.goto('/data-browser');
  await expect(page.getByTestId('user-initials')).toHaveText('AL');
});

test('an existing account is linked by its verified e-mail and returns to redirectTo', async ({ page, createUser }) => {
  const user = await createUser({ email: `grace.hopper+${tag()}@example.test`, name: 'Grace Brewster Hopper', access: true });
  await startAtOAuthPage(page, '/profile');
  await signInAtProvider(page, user.email);
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('user-initials')).toHaveText('GBH');
});

test('a second sign-in with the same provider account reuses the account', async ({ page, createUser }) => {
  test.skip(!javaScriptOn(), serverOnly);
  const user = await createUser({ email: `alan.turing+${tag()}@example.test`, name: 'Alan Mathison Turing', access: true });
  await startAtOAuthPage(page);
  await signInAtProvider(page, user.email);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-initials')).toHaveText('AMT');
  // Signed in again from a fresh browser state: the provider still knows the browser, Quarry
  // finds the account by provider + subject.
  await page.context().clearCookies({ domain: '127.0.0.1', name: '__session' });
  await startAtOAuthPage(page);
  if (page.url().startsWith(`${E2E_OIDC_ISSUER}/interaction/`)) await signInAtProvider(page, user.email);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-initials')).toHaveText('AMT');
});

test('a tampered state on the callback is refused with an error modal', async ({ page }) => {
  test.skip(!javaScriptOn(), serverOnly);
  // The provider's redirect back to Quarry is rewritten in flight: same code, another state.
  // Browsers follow redirects without asking Playwright, so the provider's form posts are
  // fetched here and their redirect chain followed until the hop back to Quarry.
  await page.route(`${E2E_OIDC_ISSUER}/interaction/**`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const response = await route.fetch({ maxRedirects: 0 });
    let location = response.headers()['location'];
    for (let hop = 0; hop < 5 && location; hop++) {
      const next = new URL(location, E2E_OIDC_ISSUER);
      if (next.origin === E2E_OIDC_ISSUER && next.pathname.startsWith('/auth/')) {
        location = (await page.context().request.get(next.href, { maxRedirects: 0 })).headers()['location'];
        continue;
      }
      const state = next.searchParams.get('state');
      if (next.origin !== E2E_OIDC_ISSUER && next.searchParams.has('code') && state) next.searchParams.set('state', `tampered-${state}`);
      return route.fulfill({ status: 302, headers: { Location: next.href } });
    }
    return route.fulfill({ response });
  });
  await startAtOAuthPage(page);
  await signInAtProvider(page, `mallory+${tag()}@example.test`);
  await expectSignInFailedModal(page, /invalid state/);
  await expect(page.getByTestId('user-initials')).toHaveCount(0);
});

test('cancelling at the provider lands on /login with an error modal', async ({ page }) => {
  await startAtOAuthPage(page);
  await expect(page).toHaveURL(new RegExp(`^${E2E_OIDC_ISSUER}/interaction/`));
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
  await expectSignInFailedModal(page, /cancelled or refused at Test IdP/);
});

test('a callback that was never started here is refused', async ({ page }) => {
  await page.goto(`/oauth/${E2E_OIDC_PROVIDER_ID}?code=forged&state=forged`);
  await expectSignInFailedModal(page, /not started here/);
});

test('an unknown provider is a 404, on the page and in the API', async ({ page, request }) => {
  test.skip(!javaScriptOn(), serverOnly);
  const response = await page.goto('/oauth/nosuchprovider');
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle(/Page Not Found/);
  await expect(page.getByText('Page not found: /oauth/nosuchprovider').first()).toBeVisible();
  const api = await request.get('/api/v1/auth/signin/nosuchprovider', { maxRedirects: 0 });
  expect(api.status()).toBe(404);
  expect(await api.json()).toEqual({ detail: expect.stringContaining('nosuchprovider') });
  const known = await request.get(`/api/v1/auth/signin/${E2E_OIDC_PROVIDER_ID}`, { maxRedirects: 0 });
  expect(known.status()).toBe(302);
  expect(known.headers().location).toBe(`/oauth/${E2E_OIDC_PROVIDER_ID}`);
});

test('redirectTo pointing off-site is ignored', async ({ page, createUser }) => {
  test.skip(!javaScriptOn(), serverOnly);
  const user = await createUser({ email: `barbara.liskov+${tag()}@example.test`, name: 'Barbara Liskov', access: true });
  await page.goto(`/oauth/${E2E_OIDC_PROVIDER_ID}?${new URLSearchParams({ redirectTo: '//evil.example/steal' })}`);
  await signInAtProvider(page, user.email);
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});
