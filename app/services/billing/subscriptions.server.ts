import type { Selectable } from 'kysely';
import { getDb, type DB, type DbExecutor } from '../db/db.server';
import { bumpUserPages } from '../db/page-versions.server';
import type { SubscriptionsTable } from '../db/schema';
import { notFound } from '../http/errors';
import { grantsAccess, statusLabel } from './access';
import type { BillingConfig } from '../config.server';
import type { SubscriptionView } from './types';
import type { SubscriptionResource } from './wire';

// Subscription rows: the provider's latest snapshot per subscription, linked to one account.
// Webhooks and the reconciliation write them through applySnapshot only.

export type SubscriptionRow = Selectable<SubscriptionsTable>;

export const SUBSCRIPTION_NOT_FOUND_DETAIL = 'Subscription not found.';

/** What applying a snapshot did: stored it, found a newer one stored, or found no account for it. */
export type SnapshotOutcome = 'applied' | 'stale' | 'unlinked' | 'foreign_store';

/**
 * The account a snapshot belongs to: the one it is already linked to; else the user id our
 * checkout put in the custom data; else the account with the customer's e-mail (a subscription
 * bought without our checkout, or found by the reconciliation after a missed webhook).
 */
async function owner(db: DbExecutor, billing: BillingConfig, s: SubscriptionResource, customUserId: unknown): Promise<string | null> {
  const linked = await db
    .selectFrom('subscriptions')
    .select('user_id')
    .where('provider', '=', billing.provider)
    .where('provider_id', '=', s.id)
    .executeTakeFirst();
  if (linked) return linked.user_id;
  if (typeof customUserId === 'string' && customUserId.length > 0 && customUserId.length <= 36) {
    const user = await db.selectFrom('users').select('id').where('id', '=', customUserId).executeTakeFirst();
    if (user) return user.id;
  }
  const email = s.attributes.user_email?.trim().toLowerCase();
  if (email) {
    const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (user) return user.id;
  }
  return null;
}

/**
 * Stores a snapshot unless a newer one is stored already. One statement decides (insert, or
 * update where the stored provider_updated_at is not newer), so concurrent webhooks and
 * reconciliation runs cannot interleave into an older state.
 */
export async function applySnapshot(
  db: DbExecutor,
  billing: BillingConfig,
  s: SubscriptionResource,
  opts: { customUserId?: unknown; now: Date },
): Promise<SnapshotOutcome> {
  const a = s.attributes;
  if (a.store_id !== billing.storeId) return 'foreign_store';
  const userId = await owner(db, billing, s, opts.customUserId);
  if (!userId) return 'unlinked';
  const now = opts.now.toISOString();
  const snapshot = {
    status: a.status,
    variant_id: a.variant_id,
    product_name: a.product_name ?? null,
    variant_name: a.variant_name ?? null,
    customer_id: a.customer_id ?? null,
    user_email: a.user_email ?? null,
    cancelled: a.cancelled ? (1 as const) : (0 as const),
    pause_mode: a.status === 'paused' ? (a.pause?.mode ?? null) : null,
    trial_ends_at: a.trial_ends_at ?? null,
    renews_at: a.renews_at ?? null,
    ends_at: a.ends_at ?? null,
    provider_updated_at: a.updated_at,
    updated_at: now,
  };
  const result = await db
    .insertInto('subscriptions')
    .values({ provider: billing.provider, provider_id: s.id, user_id: userId, created_at: a.created_at ?? now, ...snapshot })
    .onConflict((oc) =>
      oc
        .columns(['provider', 'provider_id'])
        .doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          variant_id: eb.ref('excluded.variant_id'),
          product_name: eb.ref('excluded.product_name'),
          variant_name: eb.ref('excluded.variant_name'),
          customer_id: eb.ref('excluded.customer_id'),
          user_email: eb.ref('excluded.user_email'),
          cancelled: eb.ref('excluded.cancelled'),
          pause_mode: eb.ref('excluded.pause_mode'),
          trial_ends_at: eb.ref('excluded.trial_ends_at'),
          renews_at: eb.ref('excluded.renews_at'),
          ends_at: eb.ref('excluded.ends_at'),
          provider_updated_at: eb.ref('excluded.provider_updated_at'),
          updated_at: eb.ref('excluded.updated_at'),
        }))
        .where((eb) => eb('subscriptions.provider_updated_at', '<=', eb.ref('excluded.provider_updated_at'))),
    )
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return 'stale';
  // The account's plan shows on its pages: the ones kept with the old plan are ended.
  await bumpUserPages(userId, db);
  return 'applied';
}

/**
 * The provider no longer knows this subscription (404): it cannot grant access any more.
 * Stored as expired, as of now, so only a snapshot the provider sends later can revive it.
 */
export async function markSubscriptionGone(billing: BillingConfig, providerId: string, now: Date): Promise<boolean> {
  const db = await getDb();
  const at = now.toISOString();
  const result = await db
    .updateTable('subscriptions')
    .set({ status: 'expired', ends_at: at, provider_updated_at: at, updated_at: at })
    .where('provider', '=', billing.provider)
    .where('provider_id', '=', providerId)
    .where('status', '!=', 'expired')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  const row = await db
    .selectFrom('subscriptions')
    .select('user_id')
    .where('provider', '=', billing.provider)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
  if (row) await bumpUserPages(row.user_id, db);
  return true;
}

export function subscriptionView(row: SubscriptionRow, now: Date): SubscriptionView {
  return {
    id: row.provider_id,
    status: row.status,
    status_label: statusLabel(row.status),
    variant_id: row.variant_id,
    plan_name: [row.product_name, row.variant_name].filter(Boolean).join(' – ') || null,
    cancelled: row.cancelled === 1,
    trial_ends_at: row.trial_ends_at,
    renews_at: row.renews_at,
    ends_at: row.ends_at,
    grants_access: grantsAccess(row, now),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function userRows(db: DB, billing: BillingConfig, userId: string) {
  return db.selectFrom('subscriptions').selectAll().where('provider', '=', billing.provider).where('user_id', '=', userId);
}

/** The caller's subscriptions, newest first. */
export async function listUserSubscriptions(billing: BillingConfig, userId: string, now = new Date()): Promise<SubscriptionView[]> {
  const rows = await userRows(await getDb(), billing, userId)
    .orderBy('created_at', 'desc')
    .orderBy('provider_id', 'desc')
    .execute();
  return rows.map((r) => subscriptionView(r, now));
}

/** One of the caller's subscriptions; another account's id is 404, exactly like an unknown one. */
export async function findUserSubscription(billing: BillingConfig, userId: string, providerId: string): Promise<SubscriptionRow> {
  const row = await userRows(await getDb(), billing, userId)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
  if (!row) throw notFound(SUBSCRIPTION_NOT_FOUND_DETAIL);
  return row;
}

/** Whether any of the user's subscriptions grants access at `now`. */
export async function hasGrantingSubscription(billing: BillingConfig, userId: string, now = new Date()): Promise<boolean> {
  const rows = await userRows(await getDb(), billing, userId).execute();
  return rows.some((r) => grantsAccess(r, now));
}
