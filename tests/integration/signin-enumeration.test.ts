import { describe, expect, it, vi } from 'vitest';
import { startSignIn } from '~/services/auth/accounts.server';
import * as passwords from '~/services/auth/passwords.server';
import { createUser } from '~/services/auth/users.server';
import { useDatabase } from '../support/databases';
import type * as Passwords from '~/services/auth/passwords.server';

// An unknown e-mail must cost the same password check as a wrong password, so response time
// does not tell which e-mails have accounts. Asserted on the work done, not on the clock.
vi.mock('~/services/auth/passwords.server', async (original) => {
  const real = await original<typeof Passwords>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword), verifyAgainstDummy: vi.fn(real.verifyAgainstDummy) };
});

describe('sign-in does not reveal which e-mails have accounts', () => {
  useDatabase('sqlite', 'signin_enumeration');

  it('runs one argon2 check for a wrong password and one for an unknown e-mail', async () => {
    await createUser({ email: 'known@example.com', password: 'right password 1', full_name: 'Known Person' });
    const verify = vi.mocked(passwords.verifyPassword);
    const dummy = vi.mocked(passwords.verifyAgainstDummy);

    verify.mockClear();
    dummy.mockClear();
    await expect(startSignIn({ email: 'known@example.com', password: 'wrong password' }, {})).rejects.toMatchObject({ status: 400 });
    expect(verify).toHaveBeenCalledTimes(1);
    expect(dummy).not.toHaveBeenCalled();

    verify.mockClear();
    await expect(startSignIn({ email: 'nobody@example.com', password: 'wrong password' }, {})).rejects.toMatchObject({
      status: 400,
      detail: 'Incorrect e-mail or password.',
    });
    // The spy wraps the real function: an argon2id verification against a throwaway hash.
    expect(dummy).toHaveBeenCalledTimes(1);
    await expect(dummy.mock.results[0].value).resolves.toBe(false);
  });
});
