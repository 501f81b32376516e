import type { Kysely } from 'kysely';

// Saved screeners and watchlists. Owned per user and deleted with the account.
// Screens are stored as their versioned JSON (`v: 1`), so a later schema can migrate them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('screeners')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('screen', 'text', (c) => c.notNull())
    .addColumn('share_token', 'varchar(64)', (c) => c.unique())
    .addColumn('last_run_at', 'varchar(32)')
    .addColumn('last_match_count', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('screeners_user').on('screeners').columns(['user_id', 'updated_at']).execute();

  await db.schema
    .createTable('watchlists')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('sort_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('sort_dir', 'varchar(4)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('watchlists_user').on('watchlists').column('user_id').execute();

  await db.schema
    .createTable('watchlist_items')
    .addColumn('watchlist_id', 'varchar(36)', (c) => c.notNull().references('watchlists.id').onDelete('cascade'))
    .addColumn('permaticker', 'integer', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('added_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('watchlist_items_pk', ['watchlist_id', 'permaticker'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['watchlist_items', 'watchlists', 'screeners']) await db.schema.dropTable(t).execute();
}
