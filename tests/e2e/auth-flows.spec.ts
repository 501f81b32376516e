import { expect, test, uniqueEmail } from './support/fixtures';
import {
  acknowledgeInfo,
  codeFromMail,
  javaScriptOn,
  RESET_MAIL,
  SIGN_IN_MAIL,
  submitLogin,
  submitRegistration,
  userInitials,
  wrongCode,
} from './support/page-helpers';

// The account flows through the real pages, with JavaScript on and off: sign-up,
// finishing the profile, sign-out, sign-in with the code from the real SMTP server, the profile
// name, password reset, and what the forms say when something is wrong.

const PASSWORD = 'correct horse battery staple';

test('register, finish the profile, sign out, sign in with the mailed code, change the name, sign out', async ({ page, signIn }) => {
  const account = { email: uniqueEmail('flow'), name: 'Ada Lovelace', password: PASSWORD };

  await test.step('register: signed in, sent to finish the profile', async () => {
    await submitRegistration(page, account);
    await expect(page).toHaveURL(/\/finish-profile-creation$/);
    await expect(page.getByRole('heading', { name: 'Finish your profile' })).toBeVisible();
    await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
    await expect(page.getByLabel('Full name')).toHaveValue(account.name);
  });

  await test.step('finish the profile: full access, welcome modal, initials in the header', async () => {
    await page.getByRole('button', { name: 'Finish profile' }).click();
    await expect(page).toHaveURL(/\/$/);
    await acknowledgeInfo(page, 'Welcome to Quarry');
    await expect(userInitials(page)).toHaveText('AL');
    // Full access: the screener is open now (without access it redirects to /data-browser).
    await page.goto('/screener');
    await expect(page).toHaveURL(/\/screener$/);
  });

  await test.step('sign out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await acknowledgeInfo(page, 'Signed out');
    await expect(page.locator('.field__error')).toHaveCount(0);
    await page.goto('/data-browser');
    await expect(userInitials(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  });

  await test.step('sign in with the code from the mail', async () => {
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/$/);
    await expect(userInitials(page)).toHaveText('AL');
  });

  await test.step('change the name on the profile: the initials follow', async () => {
    await page.goto('/profile');
    await expect(page.getByTestId('profile-name')).toHaveText(account.name);
    const form = page.locator('section', { has: page.getByRole('heading', { name: 'Change your name' }) });
    await form.getByLabel('Full name').fill('Grace Murray Hopper');
    await form.getByRole('button', { name: 'Save name' }).click();
    await acknowledgeInfo(page, 'Name changed', 'Grace Murray Hopper');
    await expect(page.getByTestId('profile-name')).toHaveText('Grace Murray Hopper');
    await expect(userInitials(page)).toHaveText('GMH');
    // It is stored, not just shown once.
    await page.reload();
    await expect(page.getByTestId('profile-name')).toHaveText('Grace Murray Hopper');
  });

  await test.step('sign out again: the profile needs signing in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await acknowledgeInfo(page, 'Signed out');
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile$/);
  });
});

test('a wrong password and an unknown e-mail get the same message; the e-mail is kept', async ({ page, createUser }) => {
  const user = await createUser({ access: true });

  await submitLogin(page, user.email, 'not the password at all');
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText(/\S/);
  const wrongPasswordMessage = (await alert.innerText()).trim();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(user.email);

  const unknown = uniqueEmail('nobody');
  await submitLogin(page, unknown, 'not the password at all');
  await expect(page.getByRole('alert')).toHaveText(wrongPasswordMessage);
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(unknown);
  expect(wrongPasswordMessage).toMatch(/incorrect e-mail or password/i);
});

test('a wrong code shows an error and keeps the e-mail; the right code then signs in', async ({ page, createUser, mailbox }) => {
  const user = await createUser({ access: true, name: 'Katherine Johnson' });
  const sentAfter = Date.now() - 1_000;
  await submitLogin(page, user.email, user.password);
  await expect(page).toHaveURL(/\/otp\?/);
  const code = await codeFromMail(mailbox, user.email, SIGN_IN_MAIL, sentAfter);

  await page.getByLabel('One-time code').fill(wrongCode(code));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('The code is wrong or has expired.').first()).toBeVisible();
  await expect(page).toHaveURL(/\/otp\?/);
  await expect(page.getByText(`We sent a 6-digit code to ${user.email}`)).toBeVisible();
  await expect(userInitials(page)).toHaveCount(0);

  // One wrong try does not kill the code, and the e-mail travelled with the form.
  await page.getByLabel('One-time code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(userInitials(page)).toHaveText('KJ');
});

test('forgot and reset the password: the code comes by mail, the old password stops working', async ({
  page,
  createUser,
  mailbox,
  signIn,
}) => {
  const user = await createUser({ access: true, name: 'Mary Jackson' });
  const newPassword = 'a brand new passphrase 42';

  await page.goto('/forgot-password');
  // Typed in capitals: the app lowercases the e-mail, so the mail still arrives.
  await page.getByLabel('E-mail', { exact: true }).fill(user.email.toUpperCase());
  const sentAfter = Date.now() - 1_000;
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveURL(new RegExp(`/reset-password\\?email=${encodeURIComponent(user.email).replace(/[.+]/g, '\\$&')}$`));
  await acknowledgeInfo(page, 'Check your e-mail', user.email);

  const code = await codeFromMail(mailbox, user.email, RESET_MAIL, sentAfter);
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(user.email);
  await page.getByLabel('Code from the e-mail').fill(code);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat new password').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await acknowledgeInfo(page, 'Password changed');
  // Nothing was typed yet: no red error before the form is sent.
  await expect(page.locator('.field__error')).toHaveCount(0);

  await submitLogin(page, user.email, user.password);
  await expect(page.getByRole('alert')).toHaveText(/incorrect e-mail or password/i);
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, user.email, newPassword);
  await expect(page).toHaveURL(/\/$/);
  await expect(userInitials(page)).toHaveText('MJ');
});

test('a used reset code does not work twice', async ({ page, createUser, mailbox }) => {
  const user = await createUser({ access: true });
  await page.goto('/forgot-password');
  await page.getByLabel('E-mail', { exact: true }).fill(user.email);
  const sentAfter = Date.now() - 1_000;
  await page.getByRole('button', { name: 'Send code' }).click();
  await acknowledgeInfo(page, 'Check your e-mail');
  const code = await codeFromMail(mailbox, user.email, RESET_MAIL, sentAfter);

  const reset = async (password: string) => {
    await page.goto(`/reset-password?${new URLSearchParams({ email: user.email })}`);
    await page.getByLabel('Code from the e-mail').fill(code);
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Repeat new password').fill(password);
    await page.getByRole('button', { name: 'Change password' }).click();
  };
  await reset('first new passphrase');
  await acknowledgeInfo(page, 'Password changed');
  await reset('second new passphrase');
  await expect(page.getByText('The code is wrong or has expired.').first()).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password/);
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(user.email);
});

test('field errors are shown next to their fields; typed values are kept, passwords are not', async ({ page, createUser }) => {
  const existing = await createUser();

  await test.step('passwords that do not match', async () => {
    await submitRegistration(page, { email: uniqueEmail('mismatch'), name: 'Dorothy Vaughan', password: PASSWORD }, 'another passphrase');
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByLabel('Repeat password')).toHaveAccessibleDescription(/Passwords do not match\./);
    await expect(page.getByLabel('Full name')).toHaveValue('Dorothy Vaughan');
  });

  await test.step('an e-mail that already has an account (checked by the server)', async () => {
    await submitRegistration(page, { email: existing.email, name: 'Someone Else', password: PASSWORD });
    await expect(page).toHaveURL(/\/register$/);
    const email = page.getByLabel('E-mail', { exact: true });
    await expect(email).toHaveAccessibleDescription(/An account with this e-mail already exists\./);
    await expect(email).toHaveValue(existing.email);
    await expect(page.getByLabel('Full name')).toHaveValue('Someone Else');
    await expect(page.getByLabel('Password', { exact: true })).not.toHaveAccessibleDescription(/already exists/);
    // The server never sends a password back: without JavaScript the page it renders has empty
    // password fields. (With JavaScript the browser keeps what was typed; no page is rendered.)
    if (!javaScriptOn()) {
      await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
      await expect(page.getByLabel('Repeat password')).toHaveValue('');
    }
  });

  await test.step('a wrong password at sign-in keeps the e-mail only', async () => {
    await submitLogin(page, existing.email, 'wrong wrong wrong');
    await expect(page.getByRole('alert')).toHaveText(/incorrect e-mail or password/i);
    await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(existing.email);
    if (!javaScriptOn()) await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  });
});

test('the sign-in page links work on the first click after typing in the e-mail box', async ({ page }) => {
  for (const [link, heading] of [
    ['Forgot your password?', 'Forgot your password?'],
    ['Create an account', 'Create an account'],
    ['Browse as a guest', 'Data browser'],
  ] as const) {
    await page.goto('/login');
    await page.getByLabel('E-mail', { exact: true }).fill('not an e-mail');
    // Leaving the box must not insert an error that moves the links away from the pointer.
    await page.getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  }
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill('not an e-mail');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('.field__error').first()).toBeVisible();
});

test('a guest sent away from the watchlist is told why, and signing in leads back to it', async ({ page, createUser, mailbox }) => {
  const user = await createUser({ access: true });
  await page.goto('/data-browser');
  await expect(page.getByTestId('denied-notice')).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watchlist' }).click();
  await expect(page).toHaveURL(/\/data-browser$/);
  const notice = page.getByTestId('denied-notice');
  await expect(notice.getByRole('heading', { name: 'Sign in to open the watchlist' })).toBeVisible();
  await notice.getByRole('link', { name: 'Sign in to continue' }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fwatchlist$/);
  await page.getByLabel('E-mail', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  const after = Date.now() - 1_000;
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/otp\?.*redirectTo=%2Fwatchlist/);
  await page.getByLabel('One-time code').fill(await mailbox.latestCode(user.email, { after }));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/watchlist$/);
});

test('a guest searching from the header registers and finishes the profile, keeping the search', async ({ page }) => {
  await page.goto('/data-browser');
  await page.getByLabel('Search companies by ticker or name').fill('group');
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/data-browser$/);
  const notice = page.getByTestId('denied-notice');
  await expect(notice.getByRole('heading', { name: 'Sign in to open company search' })).toBeVisible();
  await expect(notice).toContainText('/company?query=group');
  await notice.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/register\?redirectTo=%2Fcompany%3Fquery%3Dgroup$/);
  await page.getByLabel('E-mail', { exact: true }).fill(uniqueEmail('guest-search'));
  await page.getByLabel('Full name').fill('Katherine Johnson');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/finish-profile-creation\?redirectTo=%2Fcompany%3Fquery%3Dgroup$/);
  await page.getByRole('button', { name: 'Finish profile' }).click();
  await expect(page).toHaveURL(/\/company\?query=group$/);
  await acknowledgeInfo(page, 'Welcome to Quarry');
  await expect(page.getByRole('heading', { name: 'Companies', level: 1 })).toBeVisible();
});
