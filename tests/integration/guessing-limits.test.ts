import { afterEach, beforeEach, expect, it } from 'vitest';
import * as resetRoute from '~/routes/api.v1.auth.reset-password';
import * as signInRoute from '~/routes/api.v1.auth.signin';
import { confirmPasswordReset, requestPasswordReset } from '~/services/auth/accounts.server';
import { assertMayGuess, GUESS_LIMITS, LOCKED_DETAIL, recordFailedGuess } from '~/services/auth/guessing-limits.server';
import { closeRateLimits, RATE_LIMITS, resetRateLimitsForTests } from '~/services/auth/rate-limit.server';
import { createUser } from '~/services/auth/users.server';
import { isDomainError } from '~/services/http/errors';
import { callRoute } from '../support/api';
import { forEachDatabase } from '../support/databases';

// Limits that stop guessing without locking anyone out: only failures count, a success clears
// them, a flood from one client leaves other clients' sign-ins alone, and an account locks only
// after 100 failures in a row (NIST SP 800-63B), with a delay growing before that.

const PASSWORD = 'correct horse battery';
const saved = structuredClone(GUESS_LIMITS);
const savedRates = structuredClone(RATE_LIMITS);

beforeEach(() => resetRateLimitsForTests());
afterEach(async () => {
  Object.assign(GUESS_LIMITS, structuredClone(saved));
  Object.assign(RATE_LIMITS, structuredClone(savedRates));
  await closeRateLimits();
});

const signIn = (email: string, password: string, from?: string) =>
  callRoute(signInRoute, {
    path: '/api/v1/auth/signin',
    json: { email, password },
    headers: from ? { 'X-Forwarded-For': from } : {},
  });

const askReset = (email: string, from?: string) =>
  callRoute(resetRoute, {
    path: '/api/v1/auth/reset-password',
    json: { email },
    headers: from ? { 'X-Forwarded-For': from } : {},
  });

/** Collects the reset codes mailed while `run` runs. */
async function mailedCodes(run: () => Promise<void>): Promise<string[]> {
  const codes: string[] = [];
  const { vi } = await import('vitest');
  const mailer = await import('~/services/mail/mailer.server');
  const spy = vi.spyOn(mailer, 'sendMail').mockImplementation(async (mail) => {
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1];
    if (code) codes.push(code);
  });
  try {
    await run();
    await new Promise((r) => setImmediate(r));
  } finally {
    spy.mockRestore();
  }
  return codes;
}

async function refusal(run: () => Promise<unknown>): Promise<{ status: number; detail: string } | null> {
  try {
    await run();
    return null;
  } catch (e) {
    if (!isDomainError(e)) throw e;
    return { status: e.status, detail: e.detail };
  }
}

forEachDatabase(
  'guessing limits',
  () => {
    it('a flood of failures for random e-mails from one client does not stop another client’s correct sign-in', async () => {
      // Small ceilings, so the flood goes past the per-address and the global ones.
      GUESS_LIMITS.address = { points: 10, durationSeconds: 900 };
      GUESS_LIMITS.global = { points: 20, durationSeconds: 60 };
      resetRateLimitsForTests();
      const user = await createUser({ email: 'victim@example.com', password: PASSWORD, full_name: 'Vic Tim' });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await signIn(`random-${i}@example.com`, 'guess', '198.51.100.7')).status);
      expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
      // The flooding address waits; the accounts it guessed at were not locked by it.
      expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
      expect((await signIn(user.email, PASSWORD, '203.0.113.5')).status).toBe(200);
      // Two more addresses take the failures over all clients past the global ceiling.
      for (const from of ['198.51.100.8', '198.51.100.9']) {
        for (let i = 0; i < 10; i++) expect((await signIn(`more-${from}-${i}@example.com`, 'guess', from)).status).toBe(400);
      }
      // Beyond the global ceiling the delay starts at an account's first failure, and an account
      // without failures is never refused.
      expect((await signIn('fresh@example.com', 'guess', '203.0.113.6')).status).toBe(400);
      expect((await signIn('fresh@example.com', 'guess', '203.0.113.6')).status).toBe(429);
      expect((await signIn(user.email, PASSWORD, '203.0.113.7')).status).toBe(200);
    });

    it('a flood of reset requests for random e-mails from one client leaves another user’s reset working', async () => {
      // Small ceilings, so the flood goes past the per-address and the global ones.
      RATE_LIMITS.reset.address = { points: 10, durationSeconds: 3600 };
      RATE_LIMITS.reset.global = { points: 20, durationSeconds: 60 };
      resetRateLimitsForTests();
      const victim = await createUser({ email: 'resetter@example.com', password: PASSWORD, full_name: 'Re Setter' });
      const other = await createUser({ email: 'other-resetter@example.com', password: PASSWORD, full_name: 'Oth Er' });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await askReset(`random-${i}@example.com`, '198.51.100.7')).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      // The flooding address waits; nobody else does.
      expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
      let answer = { status: 0 };
      expect(await mailedCodes(async () => void (answer = await askReset(victim.email, '203.0.113.5')))).toHaveLength(1);
      expect(answer.status).toBe(200);
      // Two more addresses take the requests over all clients past the global ceiling: from here
      // each e-mail gets one request per window, and a first request is never refused.
      for (const from of ['198.51.100.8', '198.51.100.9']) {
        for (let i = 0; i < 10; i++) expect((await askReset(`more-${from}-${i}@example.com`, from)).status).toBe(200);
      }
      expect((await askReset('fresh@example.com', '203.0.113.6')).status).toBe(200);
      expect((await askReset('fresh@example.com', '203.0.113.6')).status).toBe(429);
      expect(await mailedCodes(async () => void (answer = await askReset(other.email, '203.0.113.7')))).toHaveLength(1);
      expect(answer.status).toBe(200);
    });

    it('without a known client address, a flood of resets for random e-mails never refuses a first request', async () => {
      RATE_LIMITS.reset.global = { points: 20, durationSeconds: 60 };
      resetRateLimitsForTests();
      const victim = await createUser({ email: 'no-proxy@example.com', password: PASSWORD, full_name: 'No Proxy' });
      for (let i = 0; i < 60; i++) expect((await askReset(`flood-${i}@example.com`)).status).toBe(200);
      let answer = { status: 0 };
      expect(await mailedCodes(async () => void (answer = await askReset(victim.email)))).toHaveLength(1);
      expect(answer.status).toBe(200);
    });

    it('successes never lock: failures in between are forgotten at each correct sign-in', async () => {
      const user = await createUser({ email: 'often@example.com', password: PASSWORD, full_name: 'Often Here' });
      let failures = 0;
      for (let round = 0; round < 26; round++) {
        for (let i = 0; i < GUESS_LIMITS.slowAfter - 1; i++) {
          expect((await signIn(user.email, 'typo')).status).toBe(400);
          failures++;
        }
        expect((await signIn(user.email, PASSWORD)).status).toBe(200);
      }
      expect(failures).toBeGreaterThan(GUESS_LIMITS.lockAfter);
    });

    it('slows down after a few failures and locks after 100 in a row, until the password is reset', async () => {
      const user = await createUser({ email: 'target@example.com', password: PASSWORD, full_name: 'Tar Get' });
      const keys = { email: user.email };
      for (let i = 0; i < GUESS_LIMITS.slowAfter; i++) await recordFailedGuess('password', keys);
      expect(await refusal(() => assertMayGuess('password', keys))).toBeNull();
      await recordFailedGuess('password', keys);
      expect(await refusal(() => assertMayGuess('password', keys))).toMatchObject({
        status: 429,
        detail: expect.stringMatching(/^Too many attempts/),
      });
      for (let i = GUESS_LIMITS.slowAfter + 1; i < GUESS_LIMITS.lockAfter - 1; i++) await recordFailedGuess('password', keys);
      // 99 failures: still only a delay.
      expect(await refusal(() => assertMayGuess('password', keys))).not.toMatchObject({ detail: LOCKED_DETAIL });
      await recordFailedGuess('password', keys);
      expect(await refusal(() => assertMayGuess('password', keys))).toEqual({ status: 429, detail: LOCKED_DETAIL });
      // Even the right password is refused while locked; another account is not affected.
      expect((await signIn(user.email, PASSWORD)).status).toBe(429);
      expect(await refusal(() => assertMayGuess('password', { email: 'someone-else@example.com' }))).toBeNull();

      // The owner resets the password with the mailed code and is in again.
      const codes: string[] = [];
      const { vi } = await import('vitest');
      const mailer = await import('~/services/mail/mailer.server');
      const spy = vi.spyOn(mailer, 'sendMail').mockImplementation(async (mail) => {
        const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1];
        if (code) codes.push(code);
      });
      try {
        await requestPasswordReset({ email: user.email }, {});
        await new Promise((r) => setImmediate(r));
        expect(codes).toHaveLength(1);
        await confirmPasswordReset(
          { email: user.email, token: codes[0], password: 'a new long password', password_confirmation: 'a new long password' },
          {},
        );
      } finally {
        spy.mockRestore();
      }
      expect((await signIn(user.email, 'a new long password')).status).toBe(200);
    });
  },
  { env: { TRUST_PROXY: '1' } },
);
