import type { Kysely } from 'kysely';

// Backtests and the job table. A backtest row keeps everything needed to reproduce it
// (the screen as it was, the parameters, the data snapshot id, the engine version) and its result
// (base64 of the gzipped result JSON: text works the same on SQLite and PostgreSQL). The jobs table is the queue's source of truth for both backends:
// in-process workers claim rows with a lease; with Redis, BullMQ delivers the job ids and the row
// still decides whether work is left (a re-delivered job finds it done and stops).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    // Room for recurring jobs' ids: kind@period-start.
    .addColumn('id', 'varchar(120)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_by', 'varchar(120)')
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)')
    .addColumn('finished_at', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_status').on('jobs').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('backtests')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('screener_id', 'varchar(36)')
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('screen', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('job_id', 'varchar(120)')
    .addColumn('snapshot_id', 'varchar(80)')
    .addColumn('engine_version', 'varchar(32)', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('result', 'text')
    .addColumn('share_token', 'varchar(64)', (c) => c.unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('backtests_user').on('backtests').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('backtests_screener').on('backtests').columns(['user_id', 'screener_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['backtests', 'jobs']) await db.schema.dropTable(t).execute();
}
