import type { Kysely } from 'kysely';

// Billing. A subscription row is the last snapshot the payment provider sent
// (webhook) or answered (reconciliation); has_access is computed from it on every request, so
// nothing else has to be kept in step. provider_updated_at is the provider's own updated_at:
// an older snapshot never overwrites a newer one, whatever order they arrive in.
// billing_webhook_events holds one row per processed delivery; its key is written in the same
// transaction as the delivery's effect, so a replayed delivery finds it and changes nothing.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('provider_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('variant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('product_name', 'varchar(255)')
    .addColumn('variant_name', 'varchar(255)')
    .addColumn('customer_id', 'varchar(64)')
    .addColumn('user_email', 'varchar(320)')
    .addColumn('cancelled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pause_mode', 'varchar(16)')
    .addColumn('trial_ends_at', 'varchar(32)')
    .addColumn('renews_at', 'varchar(32)')
    .addColumn('ends_at', 'varchar(32)')
    .addColumn('provider_updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('subscriptions_pk', ['provider', 'provider_id'])
    .execute();
  await db.schema.createIndex('subscriptions_user').on('subscriptions').columns(['user_id']).execute();

  await db.schema
    .createTable('billing_webhook_events')
    .addColumn('dedupe_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('event_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('subscription_id', 'varchar(64)')
    .addColumn('received_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['billing_webhook_events', 'subscriptions']) await db.schema.dropTable(t).execute();
}
