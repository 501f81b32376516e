import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { acknowledgeInfo, control, javaScriptOn, modal, submitLogin, userInitials, wrongCode } from './support/page-helpers';
import { expect, expectNoAxeViolations, test, uniqueEmail } from './support/fixtures';
import type { CreateUserOptions, TestUser } from './support/users';

// The profile page with JavaScript on and off: name, picture (a real PNG re-encoded and served
// with safe headers; a non-image refused), e-mail change by the code mailed to the new address,
// password change signing out another browser, and account deletion. Every test uses an account
// of its own: most of them end or change its sessions.

const PICTURE_SRC = /^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/;

function section(page: Page, heading: string) {
  return page.getByRole('region', { name: heading, exact: true });
}

type Fixtures = {
  createUser: (options?: CreateUserOptions) => Promise<TestUser>;
  signIn: (page: Page, email: string, password: string) => Promise<void>;
};

/** A fresh account with access, signed in through the real pages, on its profile. */
async function signedInProfile(page: Page, { createUser, signIn }: Fixtures, name: string): Promise<TestUser> {
  const user = await createUser({ access: true, name });
  await signIn(page, user.email, user.password);
  await page.goto('/profile');
  await expect(page.getByTestId('profile-name')).toHaveText(name);
  return user;
}

test('change the name with the form', async ({ page, createUser, signIn }) => {
  await signedInProfile(page, { createUser, signIn }, 'Name Before');
  const form = section(page, 'Change your name');
  await form.getByLabel('Full name').fill('');
  await form.getByRole('button', { name: 'Save name' }).click();
  await expect(form.getByText('Enter your full name.')).toBeVisible();
  await form.getByLabel('Full name').fill('Katherine Johnson');
  await form.getByRole('button', { name: 'Save name' }).click();
  await acknowledgeInfo(page, 'Name changed', 'Katherine Johnson');
  await expect(page.getByTestId('profile-name')).toHaveText('Katherine Johnson');
  await expect(userInitials(page)).toHaveText('KJ');
});

test('upload a PNG: it is shown, served as a safe 256 × 256 WebP; a non-image is refused; remove it', async ({
  page,
  createUser,
  signIn,
}) => {
  await signedInProfile(page, { createUser, signIn }, 'Picture Person');
  const pictures = section(page, 'Profile picture');
  await expect(pictures.getByText('PNG, JPEG or WebP, at most 5 MB and 4096 × 4096 pixels.')).toBeVisible();
  const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2563eb' } })
    .png()
    .toBuffer();
  await pictures.getByLabel('Picture file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await pictures.getByRole('button', { name: 'Upload picture' }).click();
  await acknowledgeInfo(page, 'Picture saved');

  const img = pictures.getByRole('img', { name: 'Your profile picture' });
  await expect(img).toHaveAttribute('src', PICTURE_SRC);
  const src = (await img.getAttribute('src')) ?? '';
  // The header shows it instead of the initials.
  await expect(userInitials(page).locator('img')).toHaveAttribute('src', src);
  const served = await page.request.get(src);
  expect(served.status()).toBe(200);
  expect(served.headers()).toMatchObject({
    'content-type': 'image/webp',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
  });
  const meta = await sharp(await served.body()).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);
  // Names that are not a stored picture are not found.
  expect((await page.request.get('/uploads/avatars/..%2F..%2Fquarry.sqlite')).status()).toBe(404);
  await expectNoAxeViolations(page);

  // A text file calling itself a PNG.
  await pictures
    .getByLabel('Picture file')
    .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are my notes, not a picture\n') });
  await pictures.getByRole('button', { name: 'Upload picture' }).click();
  await expect(pictures.getByText('This file is not a PNG, JPEG or WebP picture.')).toBeVisible();
  await expect(pictures.getByLabel('Picture file')).toHaveAttribute('aria-invalid', 'true');
  await expect(pictures.getByRole('img', { name: 'Your profile picture' })).toHaveAttribute('src', src);
  await expectNoAxeViolations(page);

  // Over 5 MB: refused with the limit in words (by the browser with JavaScript, by the server
  // through the real HTTP stack without it).
  await pictures
    .getByLabel('Picture file')
    .setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)]) });
  await pictures.getByRole('button', { name: 'Upload picture' }).click();
  await expect(pictures.getByText('The picture is larger than 5 MB. Choose a smaller file.')).toBeVisible();
  await expect(pictures.getByRole('img', { name: 'Your profile picture' })).toHaveAttribute('src', src);

  await pictures.getByRole('button', { name: 'Remove picture' }).click();
  await acknowledgeInfo(page, 'Picture removed');
  await expect(pictures.getByRole('img', { name: 'Your profile picture' })).toHaveCount(0);
  await expect(userInitials(page)).toHaveText('PP');
  expect((await page.request.get(src)).status()).toBe(404);
});

test('change the e-mail address with the code mailed to the new one', async ({ page, createUser, signIn, mailbox }) => {
  const user = await signedInProfile(page, { createUser, signIn }, 'Moving House');
  const email = section(page, 'Change your e-mail address');
  const next = uniqueEmail('moved');
  await email.getByLabel('New e-mail address').fill(next);
  await email.getByLabel('Current password').fill('not my password');
  await email.getByRole('button', { name: 'Send code' }).click();
  await expect(email.getByText('Your current password is not correct.')).toBeVisible();
  await expect(email.getByLabel('New e-mail address')).toHaveValue(next);

  await email.getByLabel('Current password').fill(user.password);
  const sentAt = Date.now() - 1_000;
  await email.getByRole('button', { name: 'Send code' }).click();
  await acknowledgeInfo(page, 'Check your new e-mail', next);
  const code = await mailbox.latestCode(next, { after: sentAt });
  await expect(page.getByTestId('pending-email-change')).toContainText(next);
  await expectNoAxeViolations(page);

  await email.getByLabel('Code from the e-mail').fill(wrongCode(code));
  await email.getByRole('button', { name: 'Confirm new address' }).click();
  await expect(email.getByText('The code is wrong or has expired.')).toBeVisible();
  await expect(page.getByTestId('profile-email')).toHaveText(user.email);

  await email.getByLabel('Code from the e-mail').fill(code);
  await email.getByRole('button', { name: 'Confirm new address' }).click();
  await acknowledgeInfo(page, 'E-mail changed', next);
  await expect(page.getByTestId('profile-email')).toHaveText(next);
  await expect(page.getByTestId('pending-email-change')).toHaveCount(0);
});

test('a password change signs out another browser; this one stays signed in', async ({ page, browser, baseURL, createUser, signIn }) => {
  const user = await signedInProfile(page, { createUser, signIn }, 'Two Browsers');
  const other = await browser.newContext({ baseURL, javaScriptEnabled: javaScriptOn() });
  try {
    const pageB = await other.newPage();
    await signIn(pageB, user.email, user.password);
    await pageB.goto('/profile');
    await expect(pageB.getByTestId('profile-name')).toHaveText('Two Browsers');

    const password = section(page, 'Change your password');
    await password.getByLabel('Current password').fill('wrong password');
    await password.getByLabel('New password', { exact: true }).fill('a much newer password');
    await password.getByLabel('Repeat new password').fill('a much newer password');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(password.getByText('Your current password is not correct.')).toBeVisible();

    await password.getByLabel('Current password').fill(user.password);
    await password.getByLabel('New password', { exact: true }).fill('a much newer password');
    await password.getByLabel('Repeat new password').fill('a much newer password');
    await password.getByRole('button', { name: 'Change password' }).click();
    await acknowledgeInfo(page, 'Password changed', 'signed out');

    // A: still signed in after a fresh load.
    await page.reload();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId('profile-name')).toHaveText('Two Browsers');

    // B: its next page load finds the session revoked: signed out (the guard sends a revoked
    // session to the data browser in guest mode), and the profile then asks to sign in.
    await pageB.goto('/profile');
    await expect(pageB).toHaveURL(/\/data-browser$/);
    await expect(userInitials(pageB)).toHaveCount(0);
    await pageB.goto('/profile');
    await expect(pageB).toHaveURL(/\/login\?redirectTo=%2Fprofile$/);
    await submitLogin(pageB, user.email, user.password);
    await expect(pageB.getByRole('alert')).toHaveText(/incorrect e-mail or password/i);
  } finally {
    await other.close();
  }
});

test('sign out everywhere ends this session too', async ({ page, createUser, signIn }) => {
  await signedInProfile(page, { createUser, signIn }, 'Everywhere Out');
  await section(page, 'Sign out everywhere').getByRole('button', { name: 'Sign me out everywhere' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await acknowledgeInfo(page, 'Signed out everywhere');
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile$/);
});

test('delete the account: its saved screener is gone and signing in fails', async ({ page, browser, baseURL, createUser, signIn }) => {
  const user = await signedInProfile(page, { createUser, signIn }, 'Short Lived');
  const name = `Doomed screen ${Date.now()}`;
  await page.goto('/screener?r=market_cap+%3E+0');
  await page.getByRole('link', { name: 'Save screen…' }).click();
  const prompt = modal(page, 'Save screen');
  await prompt.getByLabel('Name').fill(name);
  await control(prompt, 'OK').click();
  await acknowledgeInfo(page, 'Screen saved', name);
  await page.goto('/screener/manage');
  await page.getByRole('button', { name: `Create share link for ${name}` }).click();
  const shareLink = (await page.getByRole('link', { name: /\/screener\/shared\// }).getAttribute('href')) ?? '';
  expect(shareLink).toMatch(/^\/screener\/shared\//);

  // Someone else, signed in, can open the shared screener.
  const viewer = await createUser({ access: true, name: 'Link Viewer' });
  const viewerContext = await browser.newContext({ baseURL, javaScriptEnabled: javaScriptOn() });
  try {
    const viewerPage = await viewerContext.newPage();
    await signIn(viewerPage, viewer.email, viewer.password);
    const before = await viewerPage.goto(shareLink);
    expect(before?.status()).toBe(200);
    await expect(viewerPage.getByRole('heading', { name: `Shared screen: ${name}` })).toBeVisible();

    await page.goto('/profile');
    await page.getByRole('link', { name: 'Delete account…' }).click();
    const confirm = modal(page, 'Delete your account?');
    await expect(confirm).toBeVisible();
    await expectNoAxeViolations(page);
    await control(confirm, 'Delete account').click();
    await expect(page).toHaveURL(/\/register$/);
    await acknowledgeInfo(page, 'Account deleted');

    // The saved screener went with the account: its link finds nothing any more.
    const after = await viewerPage.goto(shareLink);
    expect(after?.status()).toBe(404);
  } finally {
    await viewerContext.close();
  }
  await submitLogin(page, user.email, user.password);
  await expect(page.getByRole('alert')).toHaveText(/incorrect e-mail or password/i);
});
