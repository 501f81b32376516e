import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { hasGrantingSubscription } from '../billing/subscriptions.server';
import { config } from '../config.server';
import { getDb, type DB } from '../db/db.server';
import type { UsersTable } from '../db/schema';
import { badRequest, conflict, DomainError, notFound, unprocessable } from '../http/errors';
import { zodFieldErrors } from '../http/api.server';
import { hashPassword } from './passwords.server';
import { deletePictureFile, pictureFileOfUrl } from './picture-store.server';
import { EmailSchema, FinishProfileSchema, FullNameSchema, PasswordSchema, ProfilePatchSchema } from './schemas';
import type { AccountUser, PublicUser } from './types';
import { z, type ZodTypeAny } from 'zod';

export type UserRow = Selectable<UsersTable>;

export const EMAIL_TAKEN_DETAIL = 'An account with this e-mail already exists.';

/**
 * Billing hook: does an active subscription grant this user access at `now`? See
 * billing/access.ts for which provider states count. Consulted only when billing is enabled.
 */
export async function subscriptionGrantsAccess(userId: string, now = new Date()): Promise<boolean> {
  const billing = config().billing;
  return billing ? hasGrantingSubscription(billing, userId, now) : false;
}

/**
 * has_access: an admin override wins; otherwise a finished profile, plus an active
 * subscription when billing is configured.
 */
export function hasAccess(row: Pick<UserRow, 'access_override' | 'profile_finished'>, activeSubscription = false): boolean {
  if (row.access_override !== null && row.access_override !== undefined) return row.access_override === 1;
  if (!row.profile_finished) return false;
  return !config().billingEnabled || activeSubscription;
}

export function toPublicUser(row: UserRow, activeSubscription = false): PublicUser {
  return {
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    profile_picture: row.profile_picture,
    has_access: hasAccess(row, activeSubscription),
  };
}

export function toAccountUser(row: UserRow, activeSubscription = false): AccountUser {
  return {
    ...toPublicUser(row, activeSubscription),
    is_superuser: row.is_superuser === 1,
    profile_finished: row.profile_finished === 1,
    disabled: row.disabled === 1,
  };
}

/** toAccountUser, asking the billing hook only when billing is on and nothing else decides. */
export async function loadAccountUser(row: UserRow): Promise<AccountUser> {
  const needsBilling = config().billingEnabled && row.access_override === null && row.profile_finished === 1;
  return toAccountUser(row, needsBilling ? await subscriptionGrantsAccess(row.id) : false);
}

/** Validates service input with a shared schema; failures are 422 with per-field messages. */
export function parseInput<T extends ZodTypeAny>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fields = zodFieldErrors(parsed.error);
    const first = Object.values(fields)[0]?.[0] ?? 'Check the highlighted fields.';
    throw unprocessable(first, fields);
  }
  return parsed.data;
}

export async function findUserRowByEmail(email: string, db?: DB): Promise<UserRow | undefined> {
  const d = db ?? (await getDb());
  return d.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export async function findUserRowById(id: string, db?: DB): Promise<UserRow | undefined> {
  const d = db ?? (await getDb());
  return d.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getUserById(id: string): Promise<AccountUser> {
  const row = await findUserRowById(id);
  if (!row) throw notFound('User not found.');
  return loadAccountUser(row);
}

export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown };
  // PostgreSQL unique_violation, better-sqlite3 SQLITE_CONSTRAINT_UNIQUE / PRIMARYKEY
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

type NewUser = {
  email: string;
  full_name: string;
  password_hash: string | null;
  profile_picture?: string | null;
  profile_finished?: boolean;
  access_override?: number | null;
  is_superuser?: boolean;
};

/** Inserts a user; 409 when the e-mail is taken. FIRST_USER_IS_ADMIN promotes the very first one. */
export async function insertUser(input: NewUser): Promise<UserRow> {
  const db = await getDb();
  const now = new Date().toISOString();
  const id = randomUUID();
  try {
    await db
      .insertInto('users')
      .values({
        id,
        email: input.email,
        full_name: input.full_name,
        password_hash: input.password_hash,
        profile_picture: input.profile_picture ?? null,
        profile_finished: input.profile_finished ? 1 : 0,
        access_override: input.access_override ?? null,
        is_superuser: input.is_superuser ? 1 : 0,
        disabled: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(EMAIL_TAKEN_DETAIL, { email: [EMAIL_TAKEN_DETAIL] });
    throw e;
  }
  if (config().firstUserIsAdmin && !input.is_superuser) {
    // Only the user that is the oldest account at insert time is promoted; of two racing first
    // sign-ups exactly one sees itself as the oldest.
    const others = await db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb.or([eb('created_at', '<', now), eb.and([eb('created_at', '=', now), eb('id', '<', id)])]))
      .limit(1)
      .executeTakeFirst();
    if (!others) await db.updateTable('users').set({ is_superuser: 1 }).where('id', '=', id).execute();
  }
  const row = await findUserRowById(id, db);
  if (!row) throw new DomainError(409, 'The account was removed while it was being created.');
  return row;
}

const CreateUserSchema = z.object({ email: EmailSchema, password: PasswordSchema, full_name: FullNameSchema });

/** For the CLI (`npm run user:create`). `access` finishes the profile and grants access outright. */
export async function createUser(input: {
  email: string;
  password: string;
  full_name: string;
  superuser?: boolean;
  access?: boolean;
}): Promise<AccountUser> {
  const { email, password, full_name } = parseInput(CreateUserSchema, input);
  const row = await insertUser({
    email,
    full_name,
    password_hash: await hashPassword(password),
    is_superuser: Boolean(input.superuser),
    profile_finished: Boolean(input.access),
    access_override: input.access ? 1 : null,
  });
  return loadAccountUser(row);
}

export async function updateProfile(userId: string, patch: { full_name?: string; profile_picture?: string | null }): Promise<AccountUser> {
  const clean = parseInput(ProfilePatchSchema, patch);
  const db = await getDb();
  const changes: Partial<Pick<UserRow, 'full_name' | 'profile_picture' | 'updated_at'>> = {};
  if (clean.full_name !== undefined) changes.full_name = clean.full_name;
  if (clean.profile_picture !== undefined) changes.profile_picture = clean.profile_picture;
  // An uploaded picture replaced by an address (or cleared) through the API is not kept on disk.
  const before = changes.profile_picture !== undefined ? await findUserRowById(userId, db) : undefined;
  if (Object.keys(changes).length > 0) {
    changes.updated_at = new Date().toISOString();
    await db.updateTable('users').set(changes).where('id', '=', userId).execute();
  }
  if (before && before.profile_picture !== changes.profile_picture) await deletePictureFile(pictureFileOfUrl(before.profile_picture));
  return getUserById(userId);
}

export async function finishProfile(userId: string, input: { full_name: string }): Promise<AccountUser> {
  const clean = parseInput(FinishProfileSchema, input);
  const db = await getDb();
  const result = await db
    .updateTable('users')
    .set({ full_name: clean.full_name, profile_finished: 1, updated_at: new Date().toISOString() })
    .where('id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('User not found.');
  return getUserById(userId);
}

/**
 * Removes the account and everything keyed to it: tokens, codes and social links here; screeners,
 * watchlists and backtests cascade from users (foreign keys are on in SQLite too); jobs have no
 * foreign key and go explicitly. The stored picture file goes once the rows are gone. Given a
 * transaction (the admin page's, which writes its audit entry too), the rows go inside it and the
 * caller removes the returned picture after its commit (`deletePictureOf`).
 */
export async function deleteAccount(userId: string, trx?: DB): Promise<{ picture: string | null }> {
  if (trx) return { picture: await deleteAccountRows(trx, userId) };
  const db = await getDb();
  const picture = await db.transaction().execute((t) => deleteAccountRows(t, userId));
  await deletePictureOf(picture);
  return { picture: null };
}

/** Removes a stored profile picture by its URL (nothing when null or not ours). */
export async function deletePictureOf(pictureUrl: string | null): Promise<void> {
  await deletePictureFile(pictureFileOfUrl(pictureUrl));
}

async function deleteAccountRows(trx: DB, userId: string): Promise<string | null> {
  const row = await trx.selectFrom('users').select(['id', 'email', 'profile_picture']).where('id', '=', userId).executeTakeFirst();
  if (!row) throw notFound('User not found.');
  await trx.deleteFrom('jobs').where('user_id', '=', userId).execute();
  await trx.deleteFrom('access_tokens').where('user_id', '=', userId).execute();
  await trx
    .deleteFrom('one_time_codes')
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('email', '=', row.email)]))
    .execute();
  await trx.deleteFrom('oauth_accounts').where('user_id', '=', userId).execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
  return row.profile_picture;
}

export type OAuthProfile = {
  provider: string;
  subject: string;
  email: string | null | undefined;
  emailVerified: boolean;
  name: string | null | undefined;
  picture: string | null | undefined;
};

/**
 * Social sign-in: accounts are keyed by provider + subject. An existing account is linked by
 * e-mail only when the provider vouches for that e-mail; otherwise someone could claim an account
 * by registering its address, unverified, at a provider.
 */
export async function findOrCreateOAuthUser(profile: OAuthProfile): Promise<AccountUser> {
  const provider = profile.provider.trim();
  const subject = profile.subject.trim();
  if (!provider || !subject || provider.length > 64 || subject.length > 255) {
    throw badRequest('The sign-in provider sent an incomplete answer. Try again.');
  }
  const db = await getDb();
  const linked = await db
    .selectFrom('oauth_accounts')
    .innerJoin('users', 'users.id', 'oauth_accounts.user_id')
    .selectAll('users')
    .where('oauth_accounts.provider', '=', provider)
    .where('oauth_accounts.subject', '=', subject)
    .executeTakeFirst();
  if (linked) {
    if (linked.disabled) throw new DomainError(403, 'This account is disabled.');
    return loadAccountUser(linked);
  }

  const parsedEmail = EmailSchema.safeParse(profile.email ?? '');
  if (!parsedEmail.success) {
    throw badRequest('The sign-in provider did not share a usable e-mail address. Register with your e-mail instead.');
  }
  const email = parsedEmail.data;
  const existing = await findUserRowByEmail(email, db);
  let row: UserRow;
  if (existing) {
    if (!profile.emailVerified) {
      throw conflict(`${EMAIL_TAKEN_DETAIL} Sign in with your e-mail and password.`);
    }
    if (existing.disabled) throw new DomainError(403, 'This account is disabled.');
    row = existing;
  } else {
    const name = FullNameSchema.safeParse(profile.name ?? '');
    const picture = profile.picture ? ProfilePatchSchema.shape.profile_picture.safeParse(profile.picture) : undefined;
    row = await insertUser({
      email,
      full_name: name.success ? name.data : email.split('@')[0].slice(0, 100),
      password_hash: null,
      profile_picture: picture?.success ? (picture.data ?? null) : null,
    });
  }
  try {
    await db
      .insertInto('oauth_accounts')
      .values({ provider, subject, user_id: row.id, email, created_at: new Date().toISOString() })
      .execute();
  } catch (e) {
    // A concurrent callback for the same provider account linked it first: use that link.
    if (!isUniqueViolation(e)) throw e;
    return findOrCreateOAuthUser(profile);
  }
  return loadAccountUser(row);
}

/** Sets a new password hash (reset flow). */
export async function setPasswordHash(userId: string, passwordHash: string): Promise<void> {
  const db = await getDb();
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: new Date().toISOString() })
    .where('id', '=', userId)
    .execute();
}
