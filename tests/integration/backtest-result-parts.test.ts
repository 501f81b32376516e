import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { createUser, deleteAccount } from '~/services/auth/users.server';
import { backtestJson, holdingsPageJson, rebalanceJson, tradesPageJson } from '~/services/backtest/api.server';
import { deleteBacktest, getBacktest, type BacktestView } from '~/services/backtest/backtests.server';
import { backtestCsv } from '~/services/backtest/page.server';
import { removeUnusedParts, storePagedResult } from '~/services/backtest/result-parts.server';
import { afterUnstoredRun, NOT_STORED } from '~/services/backtest/run-job.server';
import { buildResultView, DEFAULT_RESULT_QUERY } from '~/services/backtest/result-view';
import { decodeResult, encodePagedResult, encodeResult, loadedFromStored, summaryOf } from '~/services/backtest/stored-result';
import { getDb } from '~/services/db/db.server';
import { toCsv } from '~/services/http/csv';
import { forEachDatabase } from '../support/databases';
import { insertBacktestRow } from '../support/backtest-rows';
import { longResult } from '../support/paged-result';

// Paged stored results in the database (SQLite and PostgreSQL): stored in parts, read back by the
// API, the page and the CSV downloads exactly as the whole (format 3) result reads, parts of
// failed stores removed, and every part deleted with its backtest or its owner.

const long = longResult();
const whole = decodeResult(encodeResult(long));
const PART_ROWS = 1000;

forEachDatabase('paged backtest results', () => {
  let userId: string;
  let id: string;

  const newBacktest = (owner: string) => insertBacktestRow(owner, { name: 'Paged', engineVersion: long.engineVersion });

  /**
   * Stores `long` as the backtest's result: in one transaction, or (`batchChars` below its size)
   * parts first, a batch at a time, with `betweenBatches` run after each.
   */
  const store = (backtestId: string, key: string = randomUUID(), batchChars?: number, betweenBatches?: () => Promise<unknown>) =>
    storePagedResult(
      backtestId,
      key,
      encodePagedResult(long, key, PART_ROWS),
      {
        summary: JSON.stringify(summaryOf(long)),
        snapshotId: 'snap',
        engineVersion: long.engineVersion,
        storedAt: new Date().toISOString(),
      },
      { batchChars, betweenBatches },
    );

  async function partsOf(backtestId: string) {
    const db = await getDb();
    return db.selectFrom('backtest_result_parts').select(['run_key', 'kind', 'seq']).where('backtest_id', '=', backtestId).execute();
  }

  beforeAll(async () => {
    userId = (await createUser({ email: 'paged@example.com', full_name: 'Pat Paged', password: 'correct horse 1', access: true })).id;
    id = await newBacktest(userId);
    expect(await store(id)).toBe(true);
  });

  const asWhole = (view: BacktestView): BacktestView => ({ ...view, result: loadedFromStored(whole) });

  it('stores the result in many parts under the key the row names', async () => {
    const parts = await partsOf(id);
    expect(parts.length).toBeGreaterThan(20);
    const db = await getDb();
    const row = await db.selectFrom('backtests').select(['parts_key', 'result']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(new Set(parts.map((p) => p.run_key))).toEqual(new Set([row.parts_key]));
    expect(row.result!.length * 5).toBeLessThan(encodeResult(long).length);
  });

  it('answers the API exactly as the whole result does: the backtest, its trade pages across stored parts, its rebalances', async () => {
    const view = await getBacktest(userId, id, { withResult: true });
    expect(view.status).toBe('succeeded');
    const whole = asWhole(view);
    expect(JSON.stringify(await backtestJson(view))).toBe(JSON.stringify(await backtestJson(whole)));
    const lists = [
      { page: tradesPageJson, key: 'trades', rows: long.trades.length },
      { page: holdingsPageJson, key: 'holdings', rows: long.rebalances.reduce((n, b) => n + b.holdings.length, 0) },
    ] as const;
    for (const list of lists) {
      expect(list.rows).toBeGreaterThan(3 * PART_ROWS);
      // Pages that start and end inside a stored part and across parts, the last one short.
      for (const page of [
        { offset: 0, limit: 10 },
        { offset: PART_ROWS - 3, limit: 7 },
        { offset: PART_ROWS + 1, limit: 2 * PART_ROWS },
        { offset: list.rows - 5, limit: 10_000 },
      ]) {
        const paged = await list.page(view, page);
        expect(JSON.stringify(paged)).toBe(JSON.stringify(await list.page(whole, page)));
        expect((paged as unknown as Record<string, unknown[]>)[list.key].length).toBe(Math.min(page.limit, list.rows - page.offset));
      }
    }
    for (const n of [1, 2, Math.floor(long.rebalances.length / 2), long.rebalances.length]) {
      const b = await rebalanceJson(view, n);
      expect(JSON.stringify(b)).toBe(JSON.stringify(await rebalanceJson(whole, n)));
      expect(b.holdings.length).toBe(long.rebalances[n - 1].holdings.length);
    }
  });

  it('builds the page exactly as from the whole result', async () => {
    const view = await getBacktest(userId, id, { withResult: true });
    for (const query of [
      DEFAULT_RESULT_QUERY,
      { ...DEFAULT_RESULT_QUERY, rebalance: 200, tradesPage: 37 },
      { ...DEFAULT_RESULT_QUERY, rebalance: 1, tradesPage: 1_000_000 },
    ])
      expect(await buildResultView(view.result!, query)).toEqual(await buildResultView(loadedFromStored(whole), query));
  });

  it('streams the holdings and trades CSV with every row, as the whole result writes them', async () => {
    const metrics = ['ret_12m', 'pe_ttm'];
    const holdings = toCsv({
      header: ['rebalance', 'signal_date', 'trade_date', 'permaticker', 'ticker', 'weight', 'rank', ...metrics],
      rows: whole.rebalances.flatMap((b, i) =>
        b.holdings.map((h) => [
          i + 1,
          b.signalDate,
          b.tradeDate,
          h.permaticker,
          h.ticker,
          h.weight,
          h.rank,
          ...metrics.map((m) => h.values[m] ?? null),
        ]),
      ),
    });
    const trades = toCsv({
      header: ['date', 'permaticker', 'ticker', 'side', 'reason', 'value', 'price', 'shares', 'cost'],
      rows: whole.trades.map((t) => [t.date, t.permaticker, t.ticker, t.side, t.reason, t.value, t.price, t.shares, t.cost]),
    });
    const get = (table: string) => backtestCsv(userId, new URLSearchParams({ backtest_id: id, table }));
    const h = await get('holdings');
    expect(h.status).toBe(200);
    expect(h.body).toBeInstanceOf(ReadableStream);
    expect(await h.text()).toBe(holdings);
    expect(await (await get('trades')).text()).toBe(trades);
    expect((await (await get('curves')).text()).split('\r\n')).toHaveLength(whole.dates.length + 2);
  });

  it('removes the parts of a store that did not become the result, and of runs that died', async () => {
    const before = await partsOf(id);
    // The backtest has its result: a second store of it stores nothing and leaves nothing.
    expect(await store(id, 'second-store')).toBe(false);
    expect(await partsOf(id)).toEqual(expect.arrayContaining(before));
    expect((await partsOf(id)).length).toBe(before.length);
    // Parts of a run that died before storing its result.
    const db = await getDb();
    await db
      .insertInto('backtest_result_parts')
      .values({ backtest_id: id, run_key: 'died', kind: 'trades', seq: 0, row_count: 1, data: 'x' })
      .execute();
    expect((await partsOf(id)).length).toBe(before.length + 1);
    await removeUnusedParts(id);
    expect((await partsOf(id)).length).toBe(before.length);
    // A backtest without a result keeps none.
    const pending = await newBacktest(userId);
    await db
      .insertInto('backtest_result_parts')
      .values({ backtest_id: pending, run_key: 'died', kind: 'trades', seq: 0, row_count: 1, data: 'x' })
      .execute();
    await removeUnusedParts(pending);
    expect(await partsOf(pending)).toEqual([]);
  });

  /** A new backtest with a part left by a run that died before storing its result. */
  async function backtestWithDeadPart(): Promise<string> {
    const db = await getDb();
    const backtestId = await newBacktest(userId);
    await db
      .insertInto('backtest_result_parts')
      .values({ backtest_id: backtestId, run_key: 'died', kind: 'trades', seq: 0, row_count: 1, data: 'x' })
      .execute();
    return backtestId;
  }

  /** Stored under `key`, the dead run's part gone, and read back as the whole result reads. */
  async function expectStoredWhole(backtestId: string, key: string) {
    const parts = await partsOf(backtestId);
    expect(parts.length).toBe((await partsOf(id)).length);
    expect(parts.every((p) => p.run_key === key)).toBe(true);
    const view = await getBacktest(userId, backtestId, { withResult: true });
    expect(view.status).toBe('succeeded');
    expect(JSON.stringify(await backtestJson(view))).toBe(JSON.stringify(await backtestJson(asWhole(view))));
  }

  it('stores a result larger than one write batch in batches, with the same outcome', async () => {
    const batched = await backtestWithDeadPart();
    expect(await store(batched, 'batched', 64 * 1024)).toBe(true);
    await expectStoredWhole(batched, 'batched');
    // Stored already: a second batched store stores nothing and leaves nothing.
    expect(await store(batched, 'again', 64 * 1024)).toBe(false);
    await expectStoredWhole(batched, 'batched');
    await deleteBacktest(userId, batched);
  });

  it('stores a result that fits one write batch in one transaction, removing the parts of a run that died', async () => {
    const single = await backtestWithDeadPart();
    expect(await store(single, 'single')).toBe(true);
    await expectStoredWhole(single, 'single');
    expect(await store(single, 'again')).toBe(false);
    await expectStoredWhole(single, 'single');
    await deleteBacktest(userId, single);
  });

  /** Stores `long` a part per batch under `key`, with `midway` run once after its first part (the row then has no result yet). */
  function storeWith(backtestId: string, key: string, midway: () => Promise<unknown>): Promise<boolean> {
    let batches = 0;
    return store(backtestId, key, 1, async () => {
      if (batches++ > 0) return;
      const db = await getDb();
      expect(
        (await db.selectFrom('backtests').select('summary').where('id', '=', backtestId).executeTakeFirstOrThrow()).summary,
      ).toBeNull();
      expect((await partsOf(backtestId)).filter((p) => p.run_key === key)).toHaveLength(1);
      await midway();
    });
  }

  it('lets a stopped run remove its own parts while another attempt stores its result', async () => {
    const raced = await backtestWithDeadPart();
    const db = await getDb();
    const stored = await storeWith(raced, 'taken-over', async () => {
      // The run that lost the job removes what it wrote: its own parts only.
      await db
        .insertInto('backtest_result_parts')
        .values({ backtest_id: raced, run_key: 'stopped', kind: 'trades', seq: 0, row_count: 1, data: 'x' })
        .execute();
      await removeUnusedParts(raced, { runKey: 'stopped' });
    });
    expect(stored).toBe(true);
    await expectStoredWhole(raced, 'taken-over');
    // A stored result's parts are never a run's to remove.
    await removeUnusedParts(raced, { runKey: 'taken-over' });
    await expectStoredWhole(raced, 'taken-over');
    await deleteBacktest(userId, raced);
  });

  it('never lets a job read as done over a row its run did not store a result in', async () => {
    const raced = await backtestWithDeadPart();
    // Every unused part removed midway (what another attempt's store does when it wins): the result is not taken.
    expect(await storeWith(raced, 'lost-parts', () => removeUnusedParts(raced))).toBe(false);
    expect(await partsOf(raced)).toEqual([]);
    await expect(afterUnstoredRun(raced)).rejects.toThrow(NOT_STORED);
    expect((await getBacktest(userId, raced)).status).not.toBe('succeeded');
    // Another run stored it: done. Deleted meanwhile: done for good, with the reason.
    expect(await store(raced, 'retried')).toBe(true);
    await expect(afterUnstoredRun(raced)).resolves.toEqual({ message: 'Done' });
    await deleteBacktest(userId, raced);
    await expect(afterUnstoredRun(raced)).rejects.toThrow('The backtest was deleted');
  });

  it('reads a result again from the light part and parts it kept, under its run key only, never for another owner or once deleted', async () => {
    const kept = await newBacktest(userId);
    expect(await store(kept)).toBe(true);
    const query = { ...DEFAULT_RESULT_QUERY, rebalance: 200, tradesPage: 37 };
    const first = await buildResultView((await getBacktest(userId, kept, { withResult: true })).result!, query);
    expect(first).toEqual(await buildResultView(loadedFromStored(whole), query));
    // The stored texts damaged: what was read is answered from memory, what was not is read (and fails).
    const db = await getDb();
    await db.updateTable('backtests').set({ result: 'damaged' }).where('id', '=', kept).execute();
    await db.updateTable('backtest_result_parts').set({ data: 'damaged' }).where('backtest_id', '=', kept).execute();
    const again = (await getBacktest(userId, kept, { withResult: true })).result!;
    expect(await buildResultView(again, query)).toEqual(first);
    await expect(buildResultView(again, { ...query, rebalance: 1 })).rejects.toThrow();
    // The same rows under another run key are read from the database again.
    await db.updateTable('backtests').set({ parts_key: randomUUID() }).where('id', '=', kept).execute();
    await expect(getBacktest(userId, kept, { withResult: true })).rejects.toThrow();
    const other = (await createUser({ email: 'paged-3@example.com', full_name: 'Pia Paged', password: 'correct horse 1', access: true }))
      .id;
    await expect(getBacktest(other, kept, { withResult: true })).rejects.toMatchObject({ status: 404 });
    await deleteBacktest(userId, kept);
    await expect(getBacktest(userId, kept, { withResult: true })).rejects.toMatchObject({ status: 404 });
  });

  it('deletes the parts with their backtest, and with their owner', async () => {
    expect((await partsOf(id)).length).toBeGreaterThan(0);
    await deleteBacktest(userId, id);
    expect(await partsOf(id)).toEqual([]);
    const other = (await createUser({ email: 'paged-2@example.com', full_name: 'Pam Paged', password: 'correct horse 1', access: true }))
      .id;
    const theirs = await newBacktest(other);
    expect(await store(theirs)).toBe(true);
    expect((await partsOf(theirs)).length).toBeGreaterThan(0);
    await deleteAccount(other);
    expect(await partsOf(theirs)).toEqual([]);
  });
});
