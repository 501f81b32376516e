import type { Kysely } from 'kysely';

// Paged backtest results (stored-result.ts, format 4): the holdings and trade rows of a result
// are stored as parts of bounded size, so that neither the compute process writing them nor a
// page reading a few of them handles the whole result at once. A part belongs to one store of a
// result (`run_key`); the backtest row names the store its result uses (`parts_key`), so parts
// of a run that never finished are told apart and removed. Parts go with their backtest.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('backtest_result_parts')
    .addColumn('backtest_id', 'varchar(36)', (c) => c.notNull().references('backtests.id').onDelete('cascade'))
    .addColumn('run_key', 'varchar(36)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('backtest_result_parts_pk', ['backtest_id', 'run_key', 'kind', 'seq'])
    .execute();
  await db.schema.alterTable('backtests').addColumn('parts_key', 'varchar(36)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('backtests').dropColumn('parts_key').execute();
  await db.schema.dropTable('backtest_result_parts').execute();
}
