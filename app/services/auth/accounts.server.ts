import { config } from '../config.server';
import { badRequest, DomainError } from '../http/errors';
import { sendMail } from '../mail/mailer.server';
import { resetCodeMail, signInCodeMail } from '../mail/templates';
import { CODE_TTL_MS, consumeCode, issueCode } from './one-time-codes.server';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.server';
import { assertMayGuess, clearGuesses, recordFailedGuess, type GuessKind } from './guessing-limits.server';
import { limit } from './rate-limit.server';
import {
  OtpVerifySchema,
  ResetConfirmSchema,
  ResetRequestSchema,
  SignInSchema,
  SignUpSchema,
  type OtpVerifyInput,
  type ResetConfirmInput,
  type ResetRequestInput,
  type SignInInput,
  type SignUpInput,
} from './schemas';
import { issueUserToken, revokeAllUserTokens } from './tokens.server';
import type { AccountUser, IssuedToken, RequestContext } from './types';
import { findUserRowByEmail, insertUser, loadAccountUser, parseInput, setPasswordHash } from './users.server';

// The account flows (sign-in, one-time code, sign-up, reset, profile), shared by the JSON API
// and the HTML forms. Each flow checks its own rate limits, so no caller can forget them.

export const INCORRECT_CREDENTIALS_DETAIL = 'Incorrect e-mail or password.';
export const ACCOUNT_DISABLED_DETAIL = 'This account is disabled.';
const CODE_MINUTES = CODE_TTL_MS / 60_000;

export async function signUp(input: SignUpInput, ctx: RequestContext): Promise<{ user: AccountUser; token: IssuedToken }> {
  const clean = parseInput(SignUpSchema, input);
  await limit('signup', { email: clean.email, clientAddress: ctx.clientAddress });
  // The spec's API answers "already exists" (409); that tells a stranger the address has an
  // account, which is what sign-up APIs do. Sign-in and reset give nothing away.
  const row = await insertUser({
    email: clean.email,
    full_name: clean.full_name,
    password_hash: await hashPassword(clean.password),
  });
  const token = await issueUserToken(row.id);
  return { user: await loadAccountUser(row), token };
}

/** Checks the password server-side, then mails a sign-in code. The caller shows the code step. */
export async function startSignIn(input: SignInInput, ctx: RequestContext): Promise<{ email: string }> {
  const clean = parseInput(SignInSchema, input);
  const keys = { email: clean.email, clientAddress: ctx.clientAddress };
  await assertMayGuess('password', keys);
  const row = await findUserRowByEmail(clean.email);
  const ok = row?.password_hash ? await verifyPassword(row.password_hash, clean.password) : await verifyAgainstDummy(clean.password);
  if (!row || !ok) {
    await recordFailedGuess('password', keys);
    throw badRequest(INCORRECT_CREDENTIALS_DETAIL);
  }
  await clearGuesses('password', clean.email);
  if (row.disabled) throw new DomainError(403, ACCOUNT_DISABLED_DETAIL);
  const { code } = await issueCode({ purpose: 'signin', email: row.email, userId: row.id });
  await sendMail({ to: row.email, ...signInCodeMail({ code, minutes: CODE_MINUTES }) });
  return { email: row.email };
}

export async function verifySignIn(input: OtpVerifyInput, ctx: RequestContext): Promise<{ user: AccountUser; token: IssuedToken }> {
  const clean = parseInput(OtpVerifySchema, input);
  const consumed = await guessCode('signin', clean.email, clean.token, ctx);
  const row = await findUserRowByEmail(clean.email);
  if (!row || (consumed.userId !== null && consumed.userId !== row.id)) {
    throw badRequest('The code is wrong or has expired.');
  }
  if (row.disabled) throw new DomainError(403, ACCOUNT_DISABLED_DETAIL);
  const token = await issueUserToken(row.id);
  return { user: await loadAccountUser(row), token };
}

/** Uses up a one-time code, counting a wrong one against the account's guesses. */
async function guessCode(purpose: 'signin' | 'reset', email: string, code: string, ctx: RequestContext) {
  const kind: GuessKind = 'code';
  const keys = { email, clientAddress: ctx.clientAddress };
  await assertMayGuess(kind, keys);
  try {
    const consumed = await consumeCode({ purpose, email, code });
    await clearGuesses(kind, email);
    return consumed;
  } catch (e) {
    if (e instanceof DomainError && e.status < 500) await recordFailedGuess(kind, keys);
    throw e;
  }
}

export function resetLink(email: string, code: string): string {
  const query = new URLSearchParams({ email, token: code });
  return `${config().appUrl}/reset-password?${query.toString()}`;
}

/**
 * Mails a reset code and link when the account exists. The answer is the same either way, and the
 * mail is sent in the background so the response time does not tell either.
 */
export async function requestPasswordReset(input: ResetRequestInput, ctx: RequestContext): Promise<void> {
  const clean = parseInput(ResetRequestSchema, input);
  await limit('reset', { email: clean.email, clientAddress: ctx.clientAddress });
  const row = await findUserRowByEmail(clean.email);
  if (!row || row.disabled) return;
  const { code } = await issueCode({ purpose: 'reset', email: row.email, userId: row.id });
  const mail = resetCodeMail({ code, link: resetLink(row.email, code), minutes: CODE_MINUTES });
  void sendMail({ to: row.email, ...mail }).catch(() => {
    // sendMail has logged the failure; the person can ask again.
  });
}

/** Sets the new password, uses up the code and signs the account out everywhere. */
export async function confirmPasswordReset(input: ResetConfirmInput, ctx: RequestContext): Promise<void> {
  const clean = parseInput(ResetConfirmSchema, input);
  const consumed = await guessCode('reset', clean.email, clean.token, ctx);
  const row = await findUserRowByEmail(clean.email);
  if (!row || (consumed.userId !== null && consumed.userId !== row.id)) {
    throw badRequest('The code is wrong or has expired.');
  }
  await setPasswordHash(row.id, await hashPassword(clean.password));
  await revokeAllUserTokens(row.id);
  // A new password, proven by a mailed code, unlocks password sign-in for its owner.
  await clearGuesses('password', row.email);
}
