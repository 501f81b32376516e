import { expect, type Page } from '@playwright/test';
import type { Mailbox } from './mailbox';

/**
 * Signs in through the real pages: /login (e-mail + password) → /otp (the code from the test
 * SMTP server) → wherever the app sends the user. Works with JavaScript on and off.
 */
export async function signIn(
  page: Page,
  email: string,
  password: string,
  mailbox: Mailbox,
  options: { redirectTo?: string } = {},
): Promise<void> {
  const query = options.redirectTo ? `?${new URLSearchParams({ redirectTo: options.redirectTo })}` : '';
  await page.goto(`/login${query}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const submittedAt = Date.now() - 1_000;
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/otp(\?|$)/);
  const code = await mailbox.latestCode(email, { after: submittedAt });
  await page.getByLabel('One-time code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/(otp|login)(\?|$)/);
}
