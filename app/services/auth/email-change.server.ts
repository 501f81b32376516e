import { z } from 'zod';
import { getDb } from '../db/db.server';
import { badRequest, conflict, notFound } from '../http/errors';
import { sendMail } from '../mail/mailer.server';
import { config } from '../config.server';
import { emailChangeCodeMail, emailChangedNoticeMail } from '../mail/templates';
import { CODE_TTL_MS, CODE_WRONG_DETAIL, consumeCode, issueCode } from './one-time-codes.server';
import { checkCurrentPassword } from './password-change.server';
import { limit } from './rate-limit.server';
import { EmailChangeConfirmSchema, emailChangeSchema, EmailSchema, type EmailChangeInput } from './schemas';
import type { AccountUser, RequestContext } from './types';
import { EMAIL_TAKEN_DETAIL, findUserRowByEmail, findUserRowById, getUserById, isUniqueViolation, parseInput } from './users.server';

// Changing the e-mail address: a code is mailed to the NEW address and the change happens only
// when that code comes back, so nobody moves an account to an address they cannot read. The
// code is keyed by the account's current address (one pending change per account; asking again
// replaces it) and carries the new address in its payload. Once it is done, the old address is
// told, so an owner whose password was stolen hears of it.

export const SAME_EMAIL_DETAIL = 'This is already your e-mail address.';

const PayloadSchema = z.object({ new_email: EmailSchema });

export type PendingEmailChange = { newEmail: string; expiresAt: string };

function emailTaken(): Error {
  return conflict(EMAIL_TAKEN_DETAIL, { new_email: [EMAIL_TAKEN_DETAIL] });
}

/** Checks the password and the address, then mails a code to the new address. */
export async function requestEmailChange(userId: string, input: EmailChangeInput, ctx: RequestContext): Promise<PendingEmailChange> {
  const row = await findUserRowById(userId);
  if (!row) throw notFound('User not found.');
  const clean = parseInput(emailChangeSchema(Boolean(row.password_hash)), input);
  if (clean.new_email === row.email) throw badRequest(SAME_EMAIL_DETAIL, { new_email: [SAME_EMAIL_DETAIL] });
  await checkCurrentPassword(row, clean.current_password, ctx);
  // Counted for the account and for the target address too: no one fills a stranger's mailbox
  // with codes by asking from many accounts.
  await limit('email_change', { email: [row.email, clean.new_email], clientAddress: ctx.clientAddress });
  if (await findUserRowByEmail(clean.new_email)) throw emailTaken();
  const { code, expiresAt } = await issueCode({
    purpose: 'email_change',
    email: row.email,
    userId: row.id,
    payload: JSON.stringify({ new_email: clean.new_email }),
  });
  await sendMail({ to: clean.new_email, ...emailChangeCodeMail({ code, newEmail: clean.new_email, minutes: CODE_TTL_MS / 60_000 }) });
  return { newEmail: clean.new_email, expiresAt };
}

/** The change waiting for its code, if any (to show the code form). */
export async function pendingEmailChange(user: Pick<AccountUser, 'id' | 'email'>): Promise<PendingEmailChange | null> {
  const db = await getDb();
  const row = await db
    .selectFrom('one_time_codes')
    .select(['payload', 'expires_at', 'attempts'])
    .where('purpose', '=', 'email_change')
    .where('email', '=', user.email)
    .where('user_id', '=', user.id)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', new Date().toISOString())
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const payload = parsePayload(row.payload);
  return payload ? { newEmail: payload.new_email, expiresAt: row.expires_at } : null;
}

function parsePayload(text: string | null): z.infer<typeof PayloadSchema> | null {
  try {
    const parsed = PayloadSchema.safeParse(JSON.parse(text ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Uses up the code and moves the account to the new address; 409 if it was taken meanwhile. */
export async function confirmEmailChange(userId: string, input: { token: string }, ctx: RequestContext): Promise<AccountUser> {
  const row = await findUserRowById(userId);
  if (!row) throw notFound('User not found.');
  const clean = parseInput(EmailChangeConfirmSchema, input);
  await limit('otp', { email: row.email, clientAddress: ctx.clientAddress });
  const consumed = await consumeCode({ purpose: 'email_change', email: row.email, code: clean.token });
  const payload = parsePayload(consumed.payload);
  if (consumed.userId !== row.id || !payload) throw badRequest(CODE_WRONG_DETAIL, { token: [CODE_WRONG_DETAIL] });
  const db = await getDb();
  try {
    await db
      .updateTable('users')
      .set({ email: payload.new_email, updated_at: new Date().toISOString() })
      .where('id', '=', row.id)
      .where('email', '=', row.email)
      .execute();
  } catch (e) {
    if (isUniqueViolation(e)) throw emailTaken();
    throw e;
  }
  // The change is done: a notice that cannot be sent is logged by sendMail, not shown as a failure.
  await sendMail({
    to: row.email,
    ...emailChangedNoticeMail({ oldEmail: row.email, newEmail: payload.new_email, resetLink: `${config().appUrl}/forgot-password` }),
  }).catch(() => undefined);
  return getUserById(row.id);
}

/** Drops a pending change (its code stops working). */
export async function cancelEmailChange(user: Pick<AccountUser, 'id' | 'email'>): Promise<void> {
  const db = await getDb();
  await db
    .updateTable('one_time_codes')
    .set({ consumed_at: new Date().toISOString() })
    .where('purpose', '=', 'email_change')
    .where('email', '=', user.email)
    .where('consumed_at', 'is', null)
    .execute();
}
