import type { BrowserContextOptions } from '@playwright/test';
import { test as base } from './fixtures';
import { signIn } from './auth';
import { createMailbox } from './mailbox';
import { createUser, type TestUser } from './users';

// One signed-in account per worker, for specs whose tests only look at or change that
// account's profile: signing in once (the real /login → mailed code → /otp flow) instead of once
// per test. Every test still gets its own browser context, started from the saved cookies.
// Tests that end the session (sign out, delete the account) must use an account of their own.

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

export type SharedAccount = TestUser & { storageState: StorageState };

export const test = base.extend<{ account: SharedAccount }, { sharedAccount: SharedAccount }>({
  sharedAccount: [
    async ({ browser }, use, workerInfo) => {
      const user = await createUser({ access: true, name: 'Shared Account' });
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL, javaScriptEnabled: false });
      const page = await context.newPage();
      await signIn(page, user.email, user.password, createMailbox());
      const storageState = await context.storageState();
      await context.close();
      await use({ ...user, storageState });
    },
    { scope: 'worker' },
  ],
  account: async ({ sharedAccount }, use) => {
    await use(sharedAccount);
  },
  storageState: async ({ sharedAccount }, use) => {
    await use(sharedAccount.storageState);
  },
});

export { expect } from './fixtures';
