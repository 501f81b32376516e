import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { config } from '../config.server';
import { getDb, type DB } from '../db/db.server';
import { DomainError, TOKEN_EXPIRED_DETAIL, unauthorized } from '../http/errors';
import { requestMemo } from '../http/request-scope.server';
import { GUEST_MODE_OFF_DETAIL } from './access-rules';
import type { Caller, IssuedToken } from './types';
import { loadAccountUser } from './users.server';

// Opaque bearer tokens: 256 random bits, only their sha256 is stored, so a database leak does not
// hand out sessions. Guests get a stateless signed token and need no row.

export const USER_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000;
export const INVALID_TOKEN_DETAIL = 'Invalid token';
export const GUEST_TOKEN_PREFIX = 'g.';

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export async function issueUserToken(userId: string): Promise<IssuedToken> {
  const db = await getDb();
  const accessToken = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db
    .insertInto('access_tokens')
    .values({
      id: randomUUID(),
      token_hash: hashToken(accessToken),
      user_id: userId,
      token_type: 'bearer',
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + USER_TOKEN_TTL_MS).toISOString(),
      revoked_at: null,
    })
    .execute();
  return { access_token: accessToken, token_type: 'bearer' };
}

function guestSignature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(`guest:${body}`).digest('base64url');
}

export function issueGuestToken(): IssuedToken {
  if (!config().guestMode) throw new DomainError(403, GUEST_MODE_OFF_DETAIL);
  const body = randomBytes(16).toString('base64url');
  const secret = config().sessionSecrets[0];
  return { access_token: `${GUEST_TOKEN_PREFIX}${body}.${guestSignature(body, secret)}`, token_type: 'bearer' };
}

function isValidGuestToken(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'g' || !parts[1] || !parts[2]) return false;
  const given = Buffer.from(parts[2], 'utf8');
  return config().sessionSecrets.some((secret) => {
    const expected = Buffer.from(guestSignature(parts[1], secret), 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** 'Bearer xyz', 'bearer xyz' or the bare token; null when nothing usable was given. */
export function tokenFromHeader(authorizationHeaderOrToken: string | null | undefined): string | null {
  const raw = authorizationHeaderOrToken?.trim();
  if (!raw) return null;
  const match = /^bearer\s+(\S+)$/i.exec(raw);
  if (match) return match[1];
  return /\s/.test(raw) ? null : raw;
}

export function resolveCaller(authorizationHeaderOrToken: string | null): Promise<Caller> {
  // The root, layout and page loaders of one page read each ask: the database is read once.
  return requestMemo(`caller\n${authorizationHeaderOrToken ?? ''}`, () => lookUpCaller(authorizationHeaderOrToken));
}

async function lookUpCaller(authorizationHeaderOrToken: string | null): Promise<Caller> {
  const token = tokenFromHeader(authorizationHeaderOrToken);
  if (!token) {
    throw authorizationHeaderOrToken?.trim() ? unauthorized(INVALID_TOKEN_DETAIL) : unauthorized('Not authenticated');
  }
  if (token.startsWith(GUEST_TOKEN_PREFIX)) {
    // Turning guest mode off ends the guest tokens already handed out, not only new ones.
    if (!config().guestMode) throw unauthorized(GUEST_MODE_OFF_DETAIL);
    if (isValidGuestToken(token)) return { kind: 'guest' };
    throw unauthorized(INVALID_TOKEN_DETAIL);
  }
  if (token.length > 512) throw unauthorized(INVALID_TOKEN_DETAIL);
  const db = await getDb();
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('access_tokens')
    .select(['user_id', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.revoked_at !== null) throw unauthorized(INVALID_TOKEN_DETAIL);
  if (Date.parse(row.expires_at) <= Date.now()) throw unauthorized(TOKEN_EXPIRED_DETAIL);
  const user = await db.selectFrom('users').selectAll().where('id', '=', row.user_id).executeTakeFirst();
  if (!user) throw unauthorized(INVALID_TOKEN_DETAIL);
  if (user.disabled) throw new DomainError(401, 'This account is disabled.');
  return { kind: 'user', user: await loadAccountUser(user), tokenHash };
}

/** Revokes one token (logout). Unknown tokens and guest tokens are ignored. */
export async function revokeToken(accessToken: string): Promise<void> {
  const token = tokenFromHeader(accessToken);
  if (!token || token.startsWith(GUEST_TOKEN_PREFIX)) return;
  await revokeTokenHash(hashToken(token));
}

export async function revokeTokenHash(tokenHash: string): Promise<void> {
  const db = await getDb();
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: new Date().toISOString() })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** `db`: a transaction to run in (the admin page disables an account and signs it out at once). */
export async function revokeAllUserTokens(userId: string, opts: { exceptTokenHash?: string; db?: DB } = {}): Promise<void> {
  const db = opts.db ?? (await getDb());
  let query = db
    .updateTable('access_tokens')
    .set({ revoked_at: new Date().toISOString() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (opts.exceptTokenHash) query = query.where('token_hash', '!=', opts.exceptTokenHash);
  await query.execute();
}
