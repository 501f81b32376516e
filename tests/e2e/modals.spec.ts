import type { Locator, Page } from '@playwright/test';
import { acknowledgeInfo, control, javaScriptOn, modal, submitLogin, userInitials } from './support/page-helpers';
import { expect, test } from './support/shared-account';

// The modals on the profile page, with JavaScript on (Ark UI dialogs) and off
// (server-rendered dialogs): the prompt (change name), the confirm (delete account) and the
// info modal that follows an action. The tests share one signed-in account per worker; the one
// that deletes an account uses its own.

const PROMPT_TITLE = 'Change your name';
const CONFIRM_TITLE = 'Delete your account?';

async function currentName(page: Page): Promise<string> {
  await page.goto('/profile');
  return (await page.getByTestId('profile-name').innerText()).trim();
}

/** Opens the prompt the way a user does: the "Change name…" link on the profile. */
async function openPrompt(page: Page): Promise<Locator> {
  await page.goto('/profile');
  await page.getByRole('link', { name: 'Change name…' }).click();
  await expect(page).toHaveURL(/\/profile\?modal=change-name$/);
  const dialog = modal(page, PROMPT_TITLE);
  await expect(dialog).toBeVisible();
  return dialog;
}

async function openConfirm(page: Page): Promise<Locator> {
  await page.goto('/profile');
  await page.getByRole('link', { name: 'Delete account…' }).click();
  await expect(page).toHaveURL(/\/profile\?modal=delete-account$/);
  const dialog = modal(page, CONFIRM_TITLE);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('cannot be undone');
  return dialog;
}

/** After a cancelled prompt/confirm: back on /profile, no modal, the name as it was. */
async function expectClosedAndUnchanged(page: Page, dialog: Locator, name: string): Promise<void> {
  await expect(dialog).toBeHidden();
  // The page behind is usable again.
  await expect(page.locator('.page-root')).not.toHaveAttribute('inert');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('profile-name')).toHaveText(name);
  await page.reload();
  await expect(page.getByTestId('profile-name')).toHaveText(name);
}

test.describe('prompt', () => {
  test('OK submits the typed name; the info modal confirms it and OK closes it', async ({ page }) => {
    const dialog = await openPrompt(page);
    const input = dialog.getByLabel('Full name');
    await expect(input).toHaveValue(await page.getByTestId('profile-name').innerText());
    await input.fill('Hedy Lamarr');
    await dialog.getByRole('button', { name: 'OK', exact: true }).click();

    await expect(page).toHaveURL(/\/profile$/);
    const info = modal(page, 'Name changed');
    await expect(info).toBeVisible();
    await expect(info).toContainText('Your name is now Hedy Lamarr.');
    await control(info, 'OK').click();
    await expect(info).toBeHidden();
    await expect(page.getByTestId('profile-name')).toHaveText('Hedy Lamarr');
    await expect(userInitials(page)).toHaveText('HL');
    await expect(page.getByRole('region', { name: 'Change your name' }).getByLabel('Full name')).toHaveValue('Hedy Lamarr');
    // The info modal was shown once.
    await page.reload();
    await expect(page.getByTestId('profile-name')).toHaveText('Hedy Lamarr');
    await expect(modal(page, 'Name changed')).toHaveCount(0);
  });

  test('Cancel submits "cancelled": the name stays, the typed text is gone', async ({ page }) => {
    const before = await currentName(page);
    const dialog = await openPrompt(page);
    await dialog.getByLabel('Full name').fill('Should Not Be Saved');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectClosedAndUnchanged(page, dialog, before);

    const again = await openPrompt(page);
    await expect(again.getByLabel('Full name')).not.toHaveValue('Should Not Be Saved');
  });

  test('"Close modal" submits "cancelled": the name stays', async ({ page }) => {
    const before = await currentName(page);
    const dialog = await openPrompt(page);
    await dialog.getByLabel('Full name').fill('Should Not Be Saved Either');
    await dialog.getByRole('button', { name: 'Close modal', exact: true }).click();
    await expectClosedAndUnchanged(page, dialog, before);
  });

  test('the input is required: OK with an empty name does not submit', async ({ page }) => {
    const before = await currentName(page);
    const dialog = await openPrompt(page);
    const input = dialog.getByLabel('Full name');
    await expect(input).toHaveJSProperty('required', true);
    await input.fill('');
    await dialog.getByRole('button', { name: 'OK', exact: true }).click();
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/profile\?modal=change-name$/);
    await expect(modal(page, 'Name changed')).toHaveCount(0);
    await expect(page.getByTestId('profile-name')).toHaveText(before);
  });
});

test.describe('confirm', () => {
  test('Cancel and "Close modal" keep the account', async ({ page, account }) => {
    const before = await currentName(page);
    let dialog = await openConfirm(page);
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectClosedAndUnchanged(page, dialog, before);

    dialog = await openConfirm(page);
    await dialog.getByRole('button', { name: 'Close modal', exact: true }).click();
    await expectClosedAndUnchanged(page, dialog, before);
    await expect(page.getByText(account.email, { exact: true })).toBeVisible();
  });

  test('Confirm deletes the account: signed out, and signing in fails afterwards', async ({ page, createUser, signIn }) => {
    const doomed = await createUser({ access: true, name: 'Doomed Account' });
    await signIn(page, doomed.email, doomed.password);
    const dialog = await openConfirm(page);
    await dialog.getByRole('button', { name: 'Delete account', exact: true }).click();

    await expect(page).toHaveURL(/\/register$/);
    await acknowledgeInfo(page, 'Account deleted');
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile$/);

    await submitLogin(page, doomed.email, doomed.password);
    await expect(page.getByRole('alert')).toHaveText(/incorrect e-mail or password/i);
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('keyboard', () => {
  test('Escape (with JavaScript) or the close control (without) closes the info modal', async ({ page }) => {
    const dialog = await openPrompt(page);
    await dialog.getByLabel('Full name').fill('Radia Perlman');
    await dialog.getByLabel('Full name').press('Enter');
    const info = modal(page, 'Name changed');
    await expect(info).toBeVisible();
    if (javaScriptOn()) {
      await page.keyboard.press('Escape');
    } else {
      // Without JavaScript there is no Escape handler: the close link is reached by keyboard.
      await info.getByRole('link', { name: 'OK' }).focus();
      await page.keyboard.press('Enter');
    }
    await expect(info).toBeHidden();
    await expect(page.getByTestId('profile-name')).toHaveText('Radia Perlman');
  });

  test('Escape on the prompt cancels it; focus stays inside the open modal', async ({ page }) => {
    const before = await currentName(page);
    const dialog = await openPrompt(page);
    const focusInside = dialog.locator(':focus');
    if (javaScriptOn()) {
      // The dialog takes the focus when it opens (its first field, not the ×) and Tab / Shift+Tab
      // cycle inside it; the page behind it is inert from the start, as without JavaScript.
      await expect(page.locator('.page-root')).toHaveAttribute('inert', '');
      await expect(focusInside).toHaveCount(1);
      await expect(dialog.getByRole('textbox').first()).toBeFocused();
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Tab');
        await expect(focusInside, `after Tab #${i + 1}`).toHaveCount(1);
      }
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Shift+Tab');
        await expect(focusInside, `after Shift+Tab #${i + 1}`).toHaveCount(1);
      }
      await dialog.getByLabel('Full name').fill('Escaped Name');
      await page.keyboard.press('Escape');
    } else {
      // Without JavaScript the dialog's field has the focus as the page loads, and the page
      // behind it is inert: Tab never reaches it.
      await expect(dialog.getByLabel('Full name')).toBeFocused();
      await expect(page.locator('.page-root')).toHaveAttribute('inert', '');
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => Boolean(document.activeElement?.closest('.page-root'))), `after Tab #${i + 1}`).toBe(false);
      }
      // Every control of the dialog is reachable and usable by keyboard.
      await dialog.getByLabel('Full name').fill('Escaped Name');
      await dialog.getByRole('button', { name: 'Close modal' }).focus();
      await expect(focusInside).toHaveCount(1);
      await page.keyboard.press('Enter');
    }
    await expectClosedAndUnchanged(page, dialog, before);
  });
});
