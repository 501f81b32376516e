import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC_IDS } from './catalogue';
import { computeBlock } from './computed-block';
import { equalWeightMarket, UniverseEvaluator } from './engine/evaluate';
import { toEpochDay, type IsoDate } from '../dates';
import { evaluateDay, evaluateJob } from './snapshot-evaluate.worker';
import { isDeltaColumn } from './snapshot-deltas';
import { openSnapshotEvaluators } from './snapshot-evaluators.server';
import { buildSnapshots } from './snapshots.server';
import { writeFixtureStore } from './testing/fixture-store.server';
import { syntheticUniverse } from './testing/synthetic-universe';

// The snapshot build evaluates blocks in worker threads; what it stores must be the bytes the
// main thread would have stored, whichever thread evaluated which block.

const securities = syntheticUniverse({ securities: 30, years: 6, seed: 5 });
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-evaluators-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Every stored snapshot row of a file, in a fixed order, as comparable text. */
async function storedRows(file: string): Promise<{ values: string[]; blocks: string[]; inputs: number }> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    const hex = async (sql: string) => (await conn.runAndReadAll(sql)).getRows().map((r) => r.map(String).join('|'));
    return {
      values: await hex(`SELECT date::VARCHAR, block, metric, hex(data) FROM metric_snapshot_values ORDER BY date, block, metric`),
      blocks: await hex(`SELECT date::VARCHAR, block, hex(permatickers) FROM metric_snapshot_blocks ORDER BY date, block`),
      inputs: Number((await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM metric_snapshot_inputs`)).getRows()[0][0]),
    };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

describe('snapshot evaluators', () => {
  it('start worker threads that return what the main thread computes', async () => {
    const market = equalWeightMarket(securities);
    const calendar = Int32Array.from(new Set(securities.flatMap((s) => Array.from(s.dates)))).sort();
    const days = [toEpochDay('2020-06-30'), toEpochDay('2021-12-31')];
    // The second day may be stored as its changes from the first.
    const chainFrom = [-1, days[0]];
    const expected = [...evaluateJob({ id: 0, securities: structuredClone(securities), market, calendar, days, chainFrom })];
    const evaluators = await openSnapshotEvaluators(2);
    try {
      // Really threads: an in-thread fallback would keep nothing in flight.
      expect(evaluators.inFlight).toBe(2);
      // A copy of the inputs: the evaluators take their buffers.
      const copy = structuredClone(securities);
      const got = [];
      for await (const d of evaluators.evaluate({ securities: copy, market, calendar, days, chainFrom })) got.push(d);
      expect(got.map((g) => g.day)).toEqual(days);
      got.forEach((g, i) => {
        expect(Array.from(g.permatickers)).toEqual(Array.from(expected[i].permatickers));
        expect(g.values).toHaveLength(METRIC_IDS.length);
        g.values.forEach((v, m) => expect(Buffer.from(v).equals(Buffer.from(expected[i].values[m]))).toBe(true));
      });
      expect(expected[0].permatickers.length).toBeGreaterThan(0);
      // The first day in full, as the evaluator gives it; the second partly as changes from it.
      const evaluator = new UniverseEvaluator({ securities, market, calendar });
      expect(expected[0].values).toEqual(evaluateDay(evaluator, 0, days[0]).values);
      expect(expected[1].values.some((v, m) => isDeltaColumn(v) && v.byteLength < expected[0].values[m].byteLength)).toBe(true);
    } finally {
      await evaluators.close();
    }
  });

  it('compute blocks of signal days in threads as in this thread, and end every job when closed', async () => {
    const market = equalWeightMarket(securities);
    const calendar = Int32Array.from(new Set(securities.flatMap((s) => Array.from(s.dates)))).sort();
    const days = Int32Array.from(['2020-06-30', '2020-07-31', '2021-12-31'], (d) => toEpochDay(d as IsoDate));
    const metrics = ['market_cap', 'pe_ttm', 'ret_3m'];
    const expected = computeBlock({ securities: structuredClone(securities), market, calendar, days, metrics });
    const evaluators = await openSnapshotEvaluators(2);
    const job = () => ({ securities: structuredClone(securities), market, calendar, days, metrics });
    try {
      const got = await evaluators.compute(job());
      expect(Array.from(got.counts)).toEqual(Array.from(expected.counts));
      expect(got.counts[0]).toBeGreaterThan(0);
      expect(Array.from(got.permatickers)).toEqual(Array.from(expected.permatickers));
      expect(Buffer.from(got.values.buffer).equals(Buffer.from(expected.values.buffer))).toBe(true);
      // Jobs running or waiting when the pool closes end with an error, and so does every later one.
      const pending = [evaluators.compute(job()), evaluators.compute(job()), evaluators.compute(job())].map((p) =>
        p.then(
          () => 'computed',
          (e: Error) => e.message,
        ),
      );
      await evaluators.close();
      expect(await Promise.all(pending)).toEqual(Array(3).fill('The snapshot evaluators were closed.'));
      await expect(evaluators.compute(job())).rejects.toThrow('closed');
    } finally {
      await evaluators.close();
    }
  });

  it('in this thread when asked for none', async () => {
    const evaluators = await openSnapshotEvaluators(0);
    expect(evaluators.inFlight).toBe(0);
    await evaluators.close();
  });

  it('store the same bytes as a build in the main thread', async () => {
    const single = path.join(dir, 'single.duckdb');
    const threaded = path.join(dir, 'threaded.duckdb');
    await writeFixtureStore(single, securities);
    copyFileSync(single, threaded);
    // Blocks of 7: more blocks than threads, so results of several blocks are in flight at once.
    const a = await buildSnapshots({ marketDb: single, blockSize: 7, workers: 0 });
    const b = await buildSnapshots({ marketDb: threaded, blockSize: 7, workers: 3 });
    expect(b).toEqual(a);
    const [x, y] = [await storedRows(single), await storedRows(threaded)];
    expect(y).toEqual(x);
    expect(x.values.length).toBeGreaterThan(1000);
    expect(x.inputs).toBeGreaterThan(0);
  });
});
