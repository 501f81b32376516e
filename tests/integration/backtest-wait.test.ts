import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { createUser } from '~/services/auth/users.server';
import { backtestJson } from '~/services/backtest/api.server';
import { getBacktest, setBacktestShared, waitForBacktest, type BacktestView } from '~/services/backtest/backtests.server';
import { storePagedResult } from '~/services/backtest/result-parts.server';
import { announceRunStored, announceRunStoring, waitingFor } from '~/services/backtest/stored-news.server';
import { encodePagedResult, pagedLayout, pagedLightRead, summaryOf } from '~/services/backtest/stored-result';
import { getDb } from '~/services/db/db.server';
import { insertJob } from '~/services/jobs/store.server';
import { forEachDatabase } from '../support/databases';
import { insertBacktestRow } from '../support/backtest-rows';
import { longResult } from '../support/paged-result';
import { until } from '../support/until';

// A request waiting for a backtest's run (`Prefer: wait`) in the process whose worker runs it: it
// prepares its answer while the compute process stores the result, and gives that answer only
// once the result is stored and the row reads as the answer has it; otherwise it answers from
// the row as it is. On both databases.

const long = longResult();

forEachDatabase('a request waiting for a backtest run', () => {
  let userId: string;

  beforeAll(async () => {
    userId = (await createUser({ email: 'waiting@example.com', full_name: 'Wade Waiting', password: 'correct horse 1', access: true })).id;
  });

  /** A backtest whose job is running (no worker here: the test plays the worker's part). */
  async function runningBacktest(): Promise<string> {
    const db = await getDb();
    const id = randomUUID();
    await insertJob({ id, kind: 'backtest', payload: { backtestId: id }, userId, timeoutMs: 60_000 });
    await db.updateTable('jobs').set({ status: 'running', message: 'Backtest: 3 of 9 rebalance dates' }).where('id', '=', id).execute();
    await insertBacktestRow(userId, { id, name: 'Waited for', engineVersion: long.engineVersion, jobId: id });
    return id;
  }

  /** Waits for the backtest, keeping every view an answer was made from. */
  function waitFor(id: string) {
    const answered: BacktestView[] = [];
    const answer = waitForBacktest(userId, id, 20_000, async (view) => {
      answered.push(view);
      return view;
    });
    return { answered, answer };
  }

  /** What the compute process does: news that the result is being stored, the store, news that it is stored. */
  function storing(id: string) {
    const key = randomUUID();
    const layout = pagedLayout(long, 1000);
    const encoded = encodePagedResult(long, key, 1000, layout);
    const fields = {
      summary: JSON.stringify(summaryOf(long)),
      snapshotId: 'snap-w',
      engineVersion: long.engineVersion,
      storedAt: new Date().toISOString(),
    };
    return {
      announce: () => announceRunStoring(id, { light: pagedLightRead(long, key, layout), key, fields }),
      store: async () => {
        expect(await storePagedResult(id, key, encoded, fields)).toBe(true);
        announceRunStored(id);
      },
    };
  }

  const asRead = async (id: string) => backtestJson(await getBacktest(userId, id, { withResult: true }));

  it('gives the answer it prepared while the result was stored, once it is', async () => {
    const id = await runningBacktest();
    const waiting = waitFor(id);
    expect(waitingFor(id)).toBe(1);
    const run = storing(id);
    run.announce();
    await until(async () => waiting.answered.length === 1, 'the answer to be prepared', 10_000);
    // Prepared, not given: the result is not stored yet.
    let given = false;
    void waiting.answer.then(() => (given = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(given).toBe(false);
    await run.store();
    const view = await waiting.answer;
    expect(waiting.answered).toHaveLength(1);
    expect(view.status).toBe('succeeded');
    expect(await backtestJson(view)).toEqual(await asRead(id));
    expect(waitingFor(id)).toBe(0);
  });

  it('answers again from the row when the row changed while the result was stored', async () => {
    const id = await runningBacktest();
    const waiting = waitFor(id);
    const run = storing(id);
    run.announce();
    await until(async () => waiting.answered.length === 1, 'the answer to be prepared', 10_000);
    await setBacktestShared(userId, id, true);
    await run.store();
    const view = await waiting.answer;
    expect(waiting.answered).toHaveLength(2);
    expect(view.shareToken).not.toBeNull();
    expect(await backtestJson(view)).toEqual(await asRead(id));
  });

  it('goes on waiting when the run says it stored a result the row does not hold', async () => {
    const id = await runningBacktest();
    const waiting = waitFor(id);
    storing(id).announce();
    await until(async () => waiting.answered.length === 1, 'the answer to be prepared', 10_000);
    // The store found the row taken or gone (storePagedResult's false), and the run ended anyway.
    announceRunStored(id);
    let given = false;
    void waiting.answer.then(() => (given = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(given).toBe(false);
    const db = await getDb();
    await db.updateTable('jobs').set({ status: 'failed', message: 'Failed', error: 'not stored' }).where('id', '=', id).execute();
    const view = await waiting.answer;
    expect(view.status).toBe('failed');
    expect(view.result).toBeNull();
  });

  it('answers from the row when the store fails after the news', async () => {
    const id = await runningBacktest();
    const waiting = waitFor(id);
    storing(id).announce();
    await until(async () => waiting.answered.length === 1, 'the answer to be prepared', 10_000);
    const db = await getDb();
    await db.updateTable('jobs').set({ status: 'failed', message: 'Failed', error: 'disk full' }).where('id', '=', id).execute();
    const view = await waiting.answer;
    expect(view.status).toBe('failed');
    expect(view.error).toBe('disk full');
    expect(view.result).toBeNull();
    expect(waitingFor(id)).toBe(0);
  });
});
