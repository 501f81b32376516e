import type { Kysely } from 'kysely';

// Versions of what the rendered-page cache keeps (http/page-cache.server.ts): one row per user
// whose pages changed ('u:<user id>') and one for the whole site ('*'). Every web process reads
// them on a cached page read and bumps them after a change, so a change made through one process
// ends the pages the others kept.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('page_versions')
    .addColumn('scope', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('page_versions').execute();
}
