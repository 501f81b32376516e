import { DomainError, tooManyRequests } from '../http/errors';
import { storedLimiter } from './rate-limit.server';

// Limits on guessing a secret (a password, a one-time code) that cannot be turned against the
// account's owner or everyone else. Only failures count; a success clears the account's count.
// Following NIST SP 800-63B 5.2.2: at most 100 consecutive failures per account before it locks,
// and a growing delay well before that.
//
// - Per account (e-mail): the first slowAfter failures are free; each further failure makes the
//   next try wait 2, 4, 8 … seconds (at most maxDelaySeconds); after lockAfter failures in a
//   row the account's guesses are refused for lockSeconds or until the password is reset.
//   One-time codes (sign-in and reset) lock the same way, without the delay: each code dies
//   after 5 wrong tries anyway.
// - Per client address (only known with TRUST_PROXY): `address` failures in its window, then that
//   address waits; other addresses are not affected.
// - Over all clients: beyond `global` failures a minute the service is under attack, and each
//   account's delay starts at its first failure. It never refuses an account without failures,
//   so no client can use it to keep everyone out.

export type GuessKind = 'password' | 'code';

export const GUESS_LIMITS = {
  lockAfter: 100,
  lockSeconds: 24 * 60 * 60,
  slowAfter: 5,
  maxDelaySeconds: 60,
  address: { points: 50, durationSeconds: 15 * 60 },
  global: { points: 1000, durationSeconds: 60 },
};

export const LOCKED_DETAIL =
  'Too many failed attempts in a row for this account: it is locked for now. Reset your password (a code is mailed to you) to unlock it.';

type GuessKeys = { email: string; clientAddress?: string };

const failures = (kind: GuessKind) =>
  storedLimiter(`${kind}:fail:email`, { points: GUESS_LIMITS.lockAfter, durationSeconds: GUESS_LIMITS.lockSeconds });
// Only ever written with block(): any stored entry is a wait still running.
const delays = (kind: GuessKind) => storedLimiter(`${kind}:delay:email`, { points: 1, durationSeconds: GUESS_LIMITS.maxDelaySeconds });
const addressFailures = (kind: GuessKind) => storedLimiter(`${kind}:fail:address`, GUESS_LIMITS.address);
const allFailures = (kind: GuessKind) => storedLimiter(`${kind}:fail:global`, GUESS_LIMITS.global);

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const emailKey = (email: string) => email.trim().toLowerCase();

/** Throws 429 (with Retry-After) when this account or this address must wait or is locked. */
export async function assertMayGuess(kind: GuessKind, keys: GuessKeys): Promise<void> {
  const email = emailKey(keys.email);
  const [failed, delay, address] = await Promise.all([
    failures(kind).get(email),
    delays(kind).get(email),
    keys.clientAddress ? addressFailures(kind).get(keys.clientAddress) : Promise.resolve(null),
  ]);
  if (failed && failed.consumedPoints >= GUESS_LIMITS.lockAfter) {
    const wait = seconds(failed.msBeforeNext);
    throw new DomainError(429, LOCKED_DETAIL, undefined, { 'Retry-After': String(wait) });
  }
  if (delay && delay.consumedPoints > 1 && delay.msBeforeNext > 0) throw tooManyRequests(seconds(delay.msBeforeNext));
  if (address && address.consumedPoints >= GUESS_LIMITS.address.points) throw tooManyRequests(seconds(address.msBeforeNext));
}

/** Counts a wrong guess and sets the account's next wait. */
export async function recordFailedGuess(kind: GuessKind, keys: GuessKeys): Promise<void> {
  const email = emailKey(keys.email);
  const [failed, all] = await Promise.all([
    failures(kind).penalty(email, 1),
    allFailures(kind).penalty('all', 1),
    keys.clientAddress ? addressFailures(kind).penalty(keys.clientAddress, 1) : Promise.resolve(null),
  ]);
  // A one-time code dies after 5 wrong tries and a new one takes the password: codes need no
  // delay of their own, only the lock.
  if (kind === 'code') return;
  const free = all.consumedPoints > GUESS_LIMITS.global.points ? 0 : GUESS_LIMITS.slowAfter;
  const beyond = failed.consumedPoints - free;
  if (beyond > 0 && failed.consumedPoints < GUESS_LIMITS.lockAfter) {
    await delays(kind).block(email, Math.min(2 ** beyond, GUESS_LIMITS.maxDelaySeconds));
  }
}

/** A right guess (or a password reset): the account starts again with no failures. */
export async function clearGuesses(kind: GuessKind, email: string): Promise<void> {
  const key = emailKey(email);
  await Promise.all([failures(kind).delete(key), delays(kind).delete(key)]);
}
