import { test as base, type Page } from '@playwright/test';
import { signIn as signInWith } from './auth';
import { createMailbox, type Mailbox } from './mailbox';
import { createUser, type CreateUserOptions, type TestUser } from './users';

// The e2e test object: `import { test, expect } from './support/fixtures'`.
//   mailbox      read mails from the test SMTP server (codes, links)
//   createUser   create an account with the real CLI (npm run user:create)
//   signIn       the real /login → /otp flow in `page`
// Requests leaving this machine fail in the browser itself (playwright.config.ts).

type Fixtures = {
  mailbox: Mailbox;
  createUser: (options?: CreateUserOptions) => Promise<TestUser>;
  signIn: (page: Page, email: string, password: string, options?: { redirectTo?: string }) => Promise<void>;
};

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  mailbox: async ({}, provide) => {
    await provide(createMailbox());
  },
  // eslint-disable-next-line no-empty-pattern
  createUser: async ({}, provide) => {
    await provide(createUser);
  },
  signIn: async ({ mailbox }, provide) => {
    await provide((page, email, password, options) => signInWith(page, email, password, mailbox, options));
  },
});

export { expect } from '@playwright/test';
export { expectNoAxeViolations } from './axe';
export { uniqueEmail } from './users';
