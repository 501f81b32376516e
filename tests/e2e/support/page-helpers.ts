import { expect, test, type Locator, type Page } from '@playwright/test';
import { extractCode, type Mailbox } from './mailbox';

// Small page helpers shared by the end-to-end specs. They find things the way a user does (roles,
// labels, visible text) and work with JavaScript on (Ark UI dialogs, buttons) and off
// (server-rendered dialogs whose close controls are links).

/** An open modal by its title: dialog for info/prompt/confirm, alertdialog for errors. */
export function modal(page: Page, title: string | RegExp): Locator {
  return page.getByRole('dialog', { name: title }).or(page.getByRole('alertdialog', { name: title }));
}

/** A control that is a button with JavaScript and may be a link without it ("OK", "Close modal"). */
export function control(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('button', { name, exact: true }).or(scope.getByRole('link', { name, exact: true }));
}

/**
 * With JavaScript on, waits until React has hydrated the page (root.tsx marks <html>): input typed
 * or a click made before that reaches only the server-drawn page, and the live behaviour never
 * hears it. Without JavaScript there is nothing to wait for.
 */
export async function waitForHydration(page: Page): Promise<void> {
  if (javaScriptOn()) await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
}

/** Waits for the info modal `title`, checks its text, closes it with OK and waits until it is gone. */
export async function acknowledgeInfo(page: Page, title: string, text?: string | RegExp): Promise<void> {
  const dialog = modal(page, title);
  await expect(dialog).toBeVisible();
  // With JavaScript the server-drawn dialog gives way to Ark UI's once the page is hydrated, and
  // Ark's is ready once it has moved the focus inside. A click on OK in between was lost once on
  // CI (OK clicked, Ark's dialog stayed open): wait for the dialog a user would click.
  await waitForHydration(page);
  if (javaScriptOn()) await expect(dialog.and(page.locator('[data-scope="dialog"]:focus-within'))).toBeVisible();
  if (text) await expect(dialog).toContainText(text);
  await control(dialog, 'OK').click();
  await expect(dialog).toBeHidden();
}

export function userInitials(page: Page): Locator {
  return page.getByTestId('user-initials');
}

export type NewAccount = { email: string; name: string; password: string };

/** Fills and submits /register; the caller checks where it lands. */
export async function submitRegistration(page: Page, account: NewAccount, repeat = account.password): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('E-mail', { exact: true }).fill(account.email);
  await page.getByLabel('Full name').fill(account.name);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Repeat password').fill(repeat);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** Fills and submits /login with e-mail and password (the first step of signing in). */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** A six-digit code that is certainly not `code`. */
export function wrongCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

/** Whether the running project has JavaScript on (project "js") or off ("nojs"). */
export function javaScriptOn(): boolean {
  return test.info().project.use.javaScriptEnabled !== false;
}

/**
 * The code of the newest mail to `to` whose subject matches, received at or after `after`
 * (sign-in and reset mails can arrive close together; the subject tells them apart).
 */
export async function codeFromMail(mailbox: Mailbox, to: string, subject: RegExp, after: number, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await mailbox.messages(to)).filter((m) => m.receivedAt >= after && subject.test(m.subject)).at(-1);
    if (mail) return extractCode(mail);
    if (Date.now() > deadline) throw new Error(`No mail "${subject.source}" to ${to} since ${new Date(after).toISOString()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const SIGN_IN_MAIL = /sign-in code/i;
export const RESET_MAIL = /reset your .* password/i;
