import type { Browser, Locator, Page } from '@playwright/test';
import { signIn as signInWith } from './support/auth';
import { expect, expectNoAxeViolations, test } from './support/fixtures';
import { acknowledgeInfo, control, modal } from './support/page-helpers';
import { seedJob } from './support/jobs';
import { createMailbox } from './support/mailbox';
import type { TestUser } from './support/users';

// The admin console with JavaScript on and off: a superuser finds an account,
// revokes and grants its access and the account's very next page load follows; disabling signs
// it out; deleting asks first; the audit log shows it all; keyboard only; axe clean. Anyone
// else opening /admin lands on /.

/** The other account's own browser, with the same JavaScript setting as the project. */
async function browserOf(browser: Browser, user: TestUser): Promise<Page> {
  const { baseURL, javaScriptEnabled } = test.info().project.use;
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const page = await context.newPage();
  await signInWith(page, user.email, user.password, createMailbox());
  return page;
}

/** Opens `path` and returns where the app let the page end up (path and query). */
async function landing(page: Page, path: string): Promise<string> {
  const response = await page.goto(path);
  expect(response?.status(), `status of ${page.url()}`).toBe(200);
  const url = new URL(page.url());
  return url.pathname + url.search;
}

async function openUser(page: Page, email: string): Promise<void> {
  await page.goto('/admin');
  await page.getByLabel('Search by e-mail or name').fill(email);
  await page.getByRole('button', { name: 'Search users' }).click();
  await expect(page.getByTestId('users-count')).toHaveText(`1 user matches “${email}”.`);
  await page.getByTestId('admin-users').getByRole('link', { name: email }).click();
  await expect(page.getByTestId('admin-user-email')).toHaveText(email);
}

function auditRow(page: Page, action: string, target: string): Locator {
  return page.getByTestId('audit-log').getByRole('row').filter({ hasText: action }).filter({ hasText: target });
}

test('revoke, then grant: the user is sent away, then reaches a full-access page', async ({ page, browser, createUser, signIn }) => {
  test.setTimeout(120_000);
  const admin = await createUser({ superuser: true, access: true, name: 'Admin Person' });
  const target = await createUser({ access: false, name: 'Target Person' });
  const theirs = await browserOf(browser, target);
  expect(await landing(theirs, '/screener')).toBe('/data-browser');

  await signIn(page, admin.email, admin.password);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Administration', level: 1 })).toBeVisible();
  await expect(page.getByTestId('data-status')).toContainText('Snapshot id');
  await expectNoAxeViolations(page);

  await openUser(page, target.email);
  await expect(page.getByTestId('admin-user-access')).toContainText('No access. Follows the rules: the profile is not finished yet.');
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Revoke access' }).click();
  await acknowledgeInfo(page, 'Access changed', `Access for ${target.email} is revoked`);
  await expect(page.getByTestId('admin-user-access')).toContainText('Revoked by an administrator');
  expect(await landing(theirs, '/screener')).toBe('/data-browser');

  await page.getByRole('button', { name: 'Grant access' }).click();
  await acknowledgeInfo(page, 'Access changed', `Access for ${target.email} is granted: full access`);
  await expect(page.getByTestId('admin-user-access')).toContainText('Full access. Granted by an administrator');
  // The very next page load of the other browser, with the same session cookie as before.
  expect(await landing(theirs, '/screener')).toBe('/screener');
  await expect(theirs.getByRole('heading', { name: 'Stock screener' })).toBeVisible();

  await page.getByRole('link', { name: '← Back to administration' }).click();
  await expect(auditRow(page, 'user.access.grant', target.email)).toContainText(admin.email);
  await expect(auditRow(page, 'user.access.revoke', target.email)).toContainText(admin.email);
  await expect(auditRow(page, 'user.access.grant', target.email).locator('time')).toHaveAttribute(
    'datetime',
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
  );
  await theirs.context().close();
});

test('disable signs the user out; delete asks first', async ({ page, browser, createUser, signIn }) => {
  test.setTimeout(120_000);
  const admin = await createUser({ superuser: true, access: true, name: 'Admin Two' });
  const target = await createUser({ access: true, name: 'Soon Disabled' });
  const theirs = await browserOf(browser, target);
  expect(await landing(theirs, '/screener')).toBe('/screener');

  await signIn(page, admin.email, admin.password);
  await openUser(page, target.email);
  await page.getByRole('button', { name: 'Disable account' }).click();
  await acknowledgeInfo(page, 'Account disabled', 'signed out everywhere');
  // Signed out: the next load comes back as a guest, who may only browse the data browser.
  expect(await landing(theirs, '/screener')).toBe('/data-browser');
  await expect(theirs.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await theirs.context().close();

  await page.getByRole('link', { name: 'Delete account…' }).click();
  const confirm = modal(page, 'Delete this account?');
  await expect(confirm).toBeVisible();
  await control(confirm, 'Cancel').click();
  await expect(confirm).toBeHidden();
  // With JavaScript the dialog closes at once while Cancel's form post is still on its way: the
  // page is back (its address without the dialog) once the server has answered it. Opened again
  // before that, the second dialog raced that answer's redirect (as in screener.spec.ts, wait).
  await expect(page).not.toHaveURL(/modal=delete/);
  await expect(page.getByTestId('admin-user-email')).toHaveText(target.email);
  await page.getByRole('link', { name: 'Delete account…' }).click();
  await modal(page, 'Delete this account?').getByRole('button', { name: 'Delete account' }).click();
  await acknowledgeInfo(page, 'Account deleted', target.email);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(auditRow(page, 'user.delete', target.email)).toBeVisible();
  await expect(auditRow(page, 'user.disable', target.email)).toBeVisible();
});

test('a failed job is retried from the jobs section and logged', async ({ page, createUser, signIn }) => {
  const admin = await createUser({ superuser: true, access: true, name: 'Jobs Admin' });
  const error = `e2e import failed ${Date.now()}`;
  const id = await seedJob({ kind: 'import', status: 'failed', error });
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin');
  const failed = page.getByTestId('jobs-failed').getByRole('row').filter({ hasText: error });
  await expect(failed).toContainText('import');
  await expectNoAxeViolations(page);
  await failed.getByRole('button', { name: `Retry import job ${id}` }).click();
  await acknowledgeInfo(page, 'Job queued again', 'The import job is back in the queue.');
  await expect(auditRow(page, 'job.retry', `job ${id}`)).toContainText(admin.email);
  await expect(page.getByTestId('jobs-failed').getByRole('row').filter({ hasText: error })).toHaveCount(0);
});

test('a non-superuser opening /admin or a user page lands on /', async ({ page, createUser, signIn }) => {
  const member = await createUser({ access: true, name: 'Just Member' });
  await signIn(page, member.email, member.password);
  expect(await landing(page, '/admin')).toBe('/');
  expect(await landing(page, '/admin/users/00000000-0000-0000-0000-000000000000')).toBe('/');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })).toHaveCount(0);
});

test('a bad address gets a message, not an error page', async ({ page, createUser, signIn }) => {
  const admin = await createUser({ superuser: true, access: true, name: 'Admin Three' });
  await signIn(page, admin.email, admin.password);
  const response = await page.goto('/admin?page=-4&sort=password_hash');
  expect(response?.status()).toBe(400);
  await expect(page.getByRole('alert')).toHaveText('The page must be a whole number from 1 to 100000.');
  // The field's own error, tied to the field.
  await expect(page.getByLabel('Sort by')).toHaveAccessibleDescription('Sort by e-mail, name, created or last change.');
  await page.getByRole('link', { name: 'Show all users' }).click();
  await expect(page.getByTestId('admin-users')).toBeVisible();
});

/** Presses Tab until `target` has the focus. */
async function tabTo(page: Page, target: Locator, max = 120): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, `reachable with Tab within ${max} presses`).toBeFocused();
}

test('search, open a user and grant access by keyboard alone', async ({ page, createUser, signIn }) => {
  test.setTimeout(120_000);
  const admin = await createUser({ superuser: true, access: true, name: 'Keyboard Admin' });
  const target = await createUser({ access: false, name: 'Keyboard Target' });
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin');
  await tabTo(page, page.getByLabel('Search by e-mail or name'));
  await page.keyboard.type(target.email);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('users-count')).toHaveText(`1 user matches “${target.email}”.`);
  await tabTo(page, page.getByTestId('admin-users').getByRole('link', { name: target.email }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('admin-user-email')).toHaveText(target.email);
  await tabTo(page, page.getByRole('button', { name: 'Grant access' }));
  await page.keyboard.press('Enter');
  const info = modal(page, 'Access changed');
  await expect(info).toBeVisible();
  await tabTo(page, control(info, 'OK'));
  await page.keyboard.press('Enter');
  await expect(info).toBeHidden();
  await expect(page.getByTestId('admin-user-access')).toContainText('Full access. Granted by an administrator');
});
