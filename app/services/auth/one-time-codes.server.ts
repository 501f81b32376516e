import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { config } from '../config.server';
import { getDb } from '../db/db.server';
import type { OneTimeCodesTable } from '../db/schema';
import { badRequest } from '../http/errors';

// Six-digit one-time codes for sign-in, password reset and e-mail change. Stored as an HMAC,
// single use, valid ten minutes; five wrong tries kill a code. Each wrong try is one conditional
// UPDATE, so concurrent guesses cannot get more than five tries between them.

export type CodePurpose = OneTimeCodesTable['purpose'];

export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_WRONG_DETAIL = 'The code is wrong or has expired.';

const TOO_MANY_DETAIL: Record<CodePurpose, string> = {
  signin: 'Too many wrong codes. Sign in again to get a new code.',
  reset: 'Too many wrong codes. Ask for a new password reset code.',
  email_change: 'Too many wrong codes. Ask for a new code.',
};

export function tooManyWrongCodesDetail(purpose: CodePurpose): string {
  return TOO_MANY_DETAIL[purpose];
}

function codeHash(id: string, code: string): string {
  return createHmac('sha256', config().sessionSecrets[0]).update(`otp:${id}:${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Issues a new code and consumes any older live code of the same purpose and e-mail. */
export async function issueCode(input: {
  purpose: CodePurpose;
  email: string;
  userId: string | null;
  payload?: string | null;
}): Promise<{ id: string; code: string; expiresAt: string }> {
  const db = await getDb();
  const id = randomUUID();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = Date.now();
  const nowIso = new Date(now).toISOString();
  const expiresAt = new Date(now + CODE_TTL_MS).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('one_time_codes')
      .set({ consumed_at: nowIso })
      .where('purpose', '=', input.purpose)
      .where('email', '=', input.email)
      .where('consumed_at', 'is', null)
      .execute();
    await trx
      .insertInto('one_time_codes')
      .values({
        id,
        purpose: input.purpose,
        email: input.email,
        user_id: input.userId,
        code_hash: codeHash(id, code),
        created_at: nowIso,
        expires_at: expiresAt,
        consumed_at: null,
        payload: input.payload ?? null,
      })
      .execute();
  });
  return { id, code, expiresAt };
}

export type ConsumedCode = { id: string; userId: string | null; payload: string | null };

/**
 * Checks a code and consumes it when right. Wrong, expired, used or unknown codes give
 * 'The code is wrong or has expired.'; a code killed by five wrong tries gives the purpose's
 * 'Too many wrong codes' message.
 */
export async function consumeCode(input: { purpose: CodePurpose; email: string; code: string }): Promise<ConsumedCode> {
  const db = await getDb();
  const nowIso = new Date().toISOString();
  const row = await db
    .selectFrom('one_time_codes')
    .select(['id', 'code_hash', 'attempts', 'user_id', 'payload', 'expires_at'])
    .where('purpose', '=', input.purpose)
    .where('email', '=', input.email)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row || row.expires_at <= nowIso) throw badRequest(CODE_WRONG_DETAIL, { token: [CODE_WRONG_DETAIL] });
  if (row.attempts >= CODE_MAX_ATTEMPTS) throw codeKilled(input.purpose);

  if (sameHash(row.code_hash, codeHash(row.id, input.code))) {
    const used = await db
      .updateTable('one_time_codes')
      .set({ consumed_at: nowIso })
      .where('id', '=', row.id)
      .where('consumed_at', 'is', null)
      .where('attempts', '<', CODE_MAX_ATTEMPTS)
      .where('expires_at', '>', nowIso)
      .returning('id')
      .executeTakeFirst();
    if (used) return { id: row.id, userId: row.user_id, payload: row.payload };
    throw badRequest(CODE_WRONG_DETAIL, { token: [CODE_WRONG_DETAIL] });
  }

  const counted = await db
    .updateTable('one_time_codes')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('id', '=', row.id)
    .where('consumed_at', 'is', null)
    .where('attempts', '<', CODE_MAX_ATTEMPTS)
    .returning('attempts')
    .executeTakeFirst();
  if (!counted || counted.attempts >= CODE_MAX_ATTEMPTS) throw codeKilled(input.purpose);
  throw badRequest(CODE_WRONG_DETAIL, { token: [CODE_WRONG_DETAIL] });
}

function codeKilled(purpose: CodePurpose) {
  const detail = tooManyWrongCodesDetail(purpose);
  return badRequest(detail, { token: [detail] });
}
