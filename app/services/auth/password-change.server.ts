import { badRequest, notFound } from '../http/errors';
import { hashPassword, verifyPassword } from './passwords.server';
import { assertMayGuess, clearGuesses, recordFailedGuess } from './guessing-limits.server';
import { passwordChangeSchema, type PasswordChangeInput } from './schemas';
import { revokeAllUserTokens } from './tokens.server';
import type { RequestContext } from './types';
import { findUserRowById, parseInput, setPasswordHash, type UserRow } from './users.server';

// Changing the password from the profile, and the current-password check that guards it and
// the e-mail change.

export const CURRENT_PASSWORD_WRONG_DETAIL = 'Your current password is not correct.';

/**
 * Checks the current password of an account that has one (rate limited per account). Accounts
 * made by social sign-in have none: for them there is nothing to check.
 */
export async function checkCurrentPassword(
  row: Pick<UserRow, 'email' | 'password_hash'>,
  password: string | undefined,
  ctx: RequestContext,
): Promise<void> {
  if (!row.password_hash) return;
  const keys = { email: row.email, clientAddress: ctx.clientAddress };
  await assertMayGuess('password', keys);
  if (!password) throw badRequest('Enter your current password.', { current_password: ['Enter your current password.'] });
  if (!(await verifyPassword(row.password_hash, password))) {
    await recordFailedGuess('password', keys);
    throw badRequest(CURRENT_PASSWORD_WRONG_DETAIL, { current_password: [CURRENT_PASSWORD_WRONG_DETAIL] });
  }
  await clearGuesses('password', row.email);
}

/** Whether the account has a password (to show or hide the current-password fields). */
export async function accountHasPassword(userId: string): Promise<boolean> {
  const row = await findUserRowById(userId);
  return Boolean(row?.password_hash);
}

/**
 * Sets a new password and signs out every other session of the account; the session that made
 * the change (`keepTokenHash`) stays signed in.
 *
 * An account made by social sign-in has no password and may set its first one without one: the
 * session already proves who it is, and a password alone never signs anyone in (each sign-in
 * with a password also needs the code mailed to the account's address).
 */
export async function changePassword(
  userId: string,
  input: PasswordChangeInput,
  ctx: RequestContext & { keepTokenHash: string },
): Promise<void> {
  const row = await findUserRowById(userId);
  if (!row) throw notFound('User not found.');
  const clean = parseInput(passwordChangeSchema(Boolean(row.password_hash)), input);
  await checkCurrentPassword(row, clean.current_password, ctx);
  await setPasswordHash(row.id, await hashPassword(clean.password));
  await revokeAllUserTokens(row.id, { exceptTokenHash: ctx.keepTokenHash });
}
