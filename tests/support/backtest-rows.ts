import { randomUUID } from 'node:crypto';
import { BacktestParamsSchema } from '~/services/backtest/engine';
import { screenOf } from '~/services/backtest/engine/test-panel';
import { getDb } from '~/services/db/db.server';

/**
 * A backtest row of `owner` without a result (a daily 2022 top-100 run of an empty screen), as
 * tests of stored results and of waiting requests need one; `jobId` links it to a job. Returns its id.
 */
export async function insertBacktestRow(
  owner: string,
  opts: { name: string; engineVersion: string; jobId?: string; id?: string },
): Promise<string> {
  const db = await getDb();
  const id = opts.id ?? randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto('backtests')
    .values({
      id,
      user_id: owner,
      screener_id: null,
      name: opts.name,
      screen: JSON.stringify(screenOf([])),
      params: JSON.stringify(BacktestParamsSchema.parse({ start: '2022-01-03', end: '2022-12-30', rebalance: 'daily', topN: 100 })),
      job_id: opts.jobId ?? null,
      snapshot_id: null,
      engine_version: opts.engineVersion,
      summary: null,
      result: null,
      parts_key: null,
      share_token: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
