import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { codeFromMail, SIGN_IN_MAIL, userInitials } from './support/page-helpers';

// Signing in with the keyboard only (every flow must work by keyboard alone): from the
// first stop of the page, the skip link, through e-mail, password and the mailed code, with
// Tab, typing and Enter. No clicks, no fill(): keys only.

/** Presses `key` until `target` has the focus; fails after `max` presses. */
async function pressUntilFocused(page: Page, key: 'Tab' | 'Shift+Tab', target: Locator, max = 25): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target, `reachable with ${key} within ${max} presses`).toBeFocused();
}

test('sign in with the keyboard alone, code step included', async ({ page, createUser, mailbox }) => {
  const user = await createUser({ access: true, name: 'Keyboard Only User' });

  await page.goto('/data-browser');
  await test.step('the first Tab reaches the skip link, which jumps to the content', async () => {
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
  });

  await test.step('back up to "Sign in" in the header and open it', async () => {
    await pressUntilFocused(page, 'Shift+Tab', page.getByRole('link', { name: 'Sign in', exact: true }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step('e-mail, password, Enter', async () => {
    const email = page.getByLabel('E-mail', { exact: true });
    await pressUntilFocused(page, 'Tab', email);
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
    await page.keyboard.type(user.password);
  });

  const sentAfter = Date.now();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/otp\?/);

  await test.step('the mailed code, Enter', async () => {
    const code = await codeFromMail(mailbox, user.email, SIGN_IN_MAIL, sentAfter);
    await pressUntilFocused(page, 'Tab', page.getByLabel('One-time code'));
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
  });

  await expect(page).toHaveURL(/\/$/);
  await expect(userInitials(page)).toHaveText('KOU');

  await test.step('sign out by keyboard too', async () => {
    await pressUntilFocused(page, 'Tab', page.getByRole('button', { name: 'Sign out' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/login$/);
  });
});
