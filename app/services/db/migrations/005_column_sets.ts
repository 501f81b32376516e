import type { Kysely } from 'kysely';

// Saved column sets of the screener's results: a named JSON list of metric ids per user, deleted
// with the account.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('column_sets')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('column_sets_user').on('column_sets').columns(['user_id', 'name']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('column_sets').execute();
}
