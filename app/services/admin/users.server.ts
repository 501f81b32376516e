import { sql } from 'kysely';
import { revokeAllUserTokens } from '../auth/tokens.server';
import { deleteAccount, deletePictureOf, hasAccess, subscriptionGrantsAccess, type UserRow } from '../auth/users.server';
import { config } from '../config.server';
import { getDb, type DB } from '../db/db.server';
import { bumpUserPages } from '../db/page-versions.server';
import { conflict, notFound } from '../http/errors';
import { audited } from './audit.server';
import { containsPattern, pageCount, USERS_PAGE_SIZE, type AdminQuery, type UserSort } from './user-query';

// Accounts as a superuser sees them: the list, one account, and the changes an admin may make.
// Every change goes through `audited` (its audit entry in the same transaction).

export type AccessMode = 'grant' | 'revoke' | 'rules';

export type AdminUserRow = {
  id: string;
  email: string;
  full_name: string;
  created_at: string;
  updated_at: string;
  has_access: boolean;
  access_mode: AccessMode;
  is_superuser: boolean;
  disabled: boolean;
};

export type AdminUserDetail = AdminUserRow & {
  /** Why has_access is what it is, in words. */
  access_reason: string;
  profile_finished: boolean;
  counts: { screeners: number; watchlists: number; backtests: number; sessions: number };
  /** "password" and the social sign-in providers linked to the account. */
  sign_in_methods: string[];
};

export type UsersPage = { rows: AdminUserRow[]; page: number; pageCount: number; total: number };

const SORT_COLUMNS: Record<UserSort, 'email' | 'full_name' | 'created_at' | 'updated_at'> = {
  email: 'email',
  name: 'full_name',
  created: 'created_at',
  updated: 'updated_at',
};

function accessMode(row: Pick<UserRow, 'access_override'>): AccessMode {
  if (row.access_override === 1) return 'grant';
  if (row.access_override === 0) return 'revoke';
  return 'rules';
}

/** has_access as the guard computes it, asking billing only when nothing else decides. */
async function accessOf(row: UserRow): Promise<{ has: boolean; subscription: boolean | null }> {
  const needsBilling = config().billingEnabled && row.access_override === null && row.profile_finished === 1;
  const subscription = needsBilling ? await subscriptionGrantsAccess(row.id) : null;
  return { has: hasAccess(row, subscription ?? false), subscription };
}

async function toAdminRow(row: UserRow): Promise<AdminUserRow> {
  const { has } = await accessOf(row);
  return {
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    created_at: row.created_at,
    updated_at: row.updated_at,
    has_access: has,
    access_mode: accessMode(row),
    is_superuser: row.is_superuser === 1,
    disabled: row.disabled === 1,
  };
}

export async function listUsers(query: Pick<AdminQuery, 'q' | 'sort' | 'dir' | 'page'>, db?: DB): Promise<UsersPage> {
  const d = db ?? (await getDb());
  let base = d.selectFrom('users');
  if (query.q) {
    const pattern = containsPattern(query.q);
    // lower() on both sides: LIKE is case-insensitive on SQLite but not on PostgreSQL.
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`lower(${eb.ref('email')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${eb.ref('full_name')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  const { total } = await base.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  const column = SORT_COLUMNS[query.sort];
  const rows = await base
    .selectAll()
    // Names sort the same on both databases whatever their collation; ids break ties so pages
    // never overlap.
    .orderBy(column === 'full_name' ? sql`lower(full_name)` : column, query.dir)
    .orderBy('id', query.dir)
    .limit(USERS_PAGE_SIZE)
    .offset((query.page - 1) * USERS_PAGE_SIZE)
    .execute();
  const count = Number(total);
  return { rows: await Promise.all(rows.map(toAdminRow)), page: query.page, pageCount: pageCount(count, USERS_PAGE_SIZE), total: count };
}

function accessReason(row: UserRow, subscription: boolean | null): string {
  if (row.access_override === 1) return 'Granted by an administrator (overrides the rules).';
  if (row.access_override === 0) return 'Revoked by an administrator (overrides the rules).';
  if (!row.profile_finished) return 'Follows the rules: the profile is not finished yet.';
  if (subscription === null) return 'Follows the rules: the profile is finished.';
  return subscription
    ? 'Follows the rules: the profile is finished and a subscription is active.'
    : 'Follows the rules: the profile is finished, but there is no active subscription.';
}

async function countFor(d: DB, table: 'screeners' | 'watchlists' | 'backtests', userId: string): Promise<number> {
  const { n } = await d
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function getAdminUser(userId: string, db?: DB): Promise<AdminUserDetail> {
  const d = db ?? (await getDb());
  const row = await d.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw notFound('User not found.');
  const { subscription } = await accessOf(row);
  const now = new Date().toISOString();
  const [screeners, watchlists, backtests, sessions, providers] = await Promise.all([
    countFor(d, 'screeners', userId),
    countFor(d, 'watchlists', userId),
    countFor(d, 'backtests', userId),
    d
      .selectFrom('access_tokens')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n)),
    d.selectFrom('oauth_accounts').select('provider').where('user_id', '=', userId).orderBy('provider').execute(),
  ]);
  return {
    ...(await toAdminRow(row)),
    access_reason: accessReason(row, subscription),
    profile_finished: row.profile_finished === 1,
    counts: { screeners, watchlists, backtests, sessions },
    sign_in_methods: [...(row.password_hash ? ['password'] : []), ...providers.map((p) => p.provider)],
  };
}

// ---------------------------------------------------------------------------------------------
// Changes. Each reads the account inside the transaction, refuses what must not happen, changes
// it and describes it for the audit log.

async function targetRow(trx: DB, userId: string): Promise<UserRow> {
  const row = await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw notFound('User not found.');
  return row;
}

/** The change would leave no active superuser (superuser and not disabled) to run this page. */
async function assertNotLastSuperuser(trx: DB, target: UserRow, what: string): Promise<void> {
  if (target.is_superuser !== 1 || target.disabled === 1) return;
  const other = await trx
    .selectFrom('users')
    .select('id')
    .where('is_superuser', '=', 1)
    .where('disabled', '=', 0)
    .where('id', '!=', target.id)
    .limit(1)
    .executeTakeFirst();
  if (!other) {
    throw conflict(`${target.email} is the last active superuser, so you cannot ${what}. Make another account superuser first.`);
  }
}

const ACCESS_WORDS: Record<AccessMode, string> = { grant: 'granted', revoke: 'revoked', rules: 'follows the rules' };
const touch = () => new Date().toISOString();

/**
 * The account as it is after a change. Read after the commit: the billing hook reads the
 * database on its own, which must not wait on the change's open transaction.
 */
async function afterChange(userId: string): Promise<AdminUserRow> {
  const db = await getDb();
  // Their access, role or name shows on their pages: the ones kept before the change are ended.
  await bumpUserPages(userId, db);
  return toAdminRow(await targetRow(db, userId));
}

export async function setAccess(actorId: string, userId: string, mode: AccessMode): Promise<AdminUserRow> {
  await audited(actorId, async (trx) => {
    const target = await targetRow(trx, userId);
    const override = mode === 'grant' ? 1 : mode === 'revoke' ? 0 : null;
    await trx.updateTable('users').set({ access_override: override, updated_at: touch() }).where('id', '=', userId).execute();
    return {
      result: null,
      audit: {
        action: `user.access.${mode}`,
        target: target.email,
        detail: `Access: ${ACCESS_WORDS[accessMode(target)]} → ${ACCESS_WORDS[mode]} (user ${userId}).`,
      },
    };
  });
  return afterChange(userId);
}

export async function setSuperuser(actorId: string, userId: string, superuser: boolean): Promise<AdminUserRow> {
  await audited(actorId, async (trx) => {
    const target = await targetRow(trx, userId);
    if (!superuser) await assertNotLastSuperuser(trx, target, 'remove their superuser role');
    await trx
      .updateTable('users')
      .set({ is_superuser: superuser ? 1 : 0, updated_at: touch() })
      .where('id', '=', userId)
      .execute();
    return {
      result: null,
      audit: {
        action: superuser ? 'user.superuser.make' : 'user.superuser.unmake',
        target: target.email,
        detail: `Superuser: ${target.is_superuser ? 'yes' : 'no'} → ${superuser ? 'yes' : 'no'} (user ${userId}).`,
      },
    };
  });
  return afterChange(userId);
}

/** Disabling also revokes every token of the account, so it is signed out everywhere at once. */
export async function setDisabled(actorId: string, userId: string, disabled: boolean): Promise<AdminUserRow> {
  await audited(actorId, async (trx) => {
    const target = await targetRow(trx, userId);
    if (disabled && userId === actorId) throw conflict('You cannot disable your own account.');
    if (disabled) await assertNotLastSuperuser(trx, target, 'disable the account');
    await trx
      .updateTable('users')
      .set({ disabled: disabled ? 1 : 0, updated_at: touch() })
      .where('id', '=', userId)
      .execute();
    if (disabled) await revokeAllUserTokens(userId, { db: trx });
    return {
      result: null,
      audit: {
        action: disabled ? 'user.disable' : 'user.enable',
        target: target.email,
        detail: disabled ? `Disabled and signed out everywhere (user ${userId}).` : `Enabled again (user ${userId}).`,
      },
    };
  });
  return afterChange(userId);
}

export async function deleteUserAsAdmin(actorId: string, userId: string): Promise<{ email: string }> {
  let picture: string | null = null;
  const out = await audited(actorId, async (trx) => {
    const target = await targetRow(trx, userId);
    if (userId === actorId) throw conflict('You cannot delete your own account here. Use your profile page.');
    await assertNotLastSuperuser(trx, target, 'delete the account');
    picture = (await deleteAccount(userId, trx)).picture;
    return {
      result: { email: target.email },
      audit: {
        action: 'user.delete',
        target: target.email,
        detail: `Deleted the account ${target.full_name} <${target.email}> (user ${userId}).`,
      },
    };
  });
  // The file goes only once the rows are gone for good (after the commit).
  await deletePictureOf(picture);
  return out;
}
