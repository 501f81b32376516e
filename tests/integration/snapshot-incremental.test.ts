import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDataCli } from '~/services/imports/data-cli.server';
import { silentProgress } from '~/services/imports/progress.server';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { buildSnapshots, type SnapshotBuildResult } from '~/services/metrics/snapshots.server';
import { SNAPSHOT_TABLES } from '~/services/metrics/snapshot-schema';
import { dumpSnapshotTables, fullRebuildTables, storeRows } from '../support/snapshot-tables';

// An incremental snapshot build keeps the stored rows whose inputs did not change and computes
// the rest: after each kind of change its snapshot tables must equal, row for row and bit for
// bit, those of a full build of the same store. Small blocks (7 securities) so that a change in
// one security leaves other blocks' rows kept.

const BLOCK = 7;
const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-incremental-'));
const base = path.join(dir, 'base.duckdb');
let n = 0;

/**
 * Copies the base store, applies `change`, then builds it incrementally and a copy of it in full:
 * the two must be the same. Returns what the incremental build did.
 */
async function changeAndCompare(change: string[], opts: { weekly?: boolean } = {}): Promise<SnapshotBuildResult> {
  n++;
  const inc = path.join(dir, `inc-${n}.duckdb`);
  copyFileSync(base, inc);
  if (change.length > 0) await storeRows(inc, [...change, 'CHECKPOINT']);
  const result = await buildSnapshots({ marketDb: inc, blockSize: BLOCK, incremental: true, progress: silentProgress, ...opts });
  const [a, b] = [await dumpSnapshotTables(inc), await fullRebuildTables(inc, { blockSize: BLOCK, ...opts })];
  for (const t of SNAPSHOT_TABLES) expect(a[t] === b[t], `table ${t}`).toBe(true);
  return result;
}

/** The next weekday after the store's last price day, with a bar for every security listed then. */
const NEW_DAY = [
  `CREATE TEMP TABLE nd AS SELECT max(date) AS last, (max(date) + CASE dayofweek(max(date)) WHEN 5 THEN 3 WHEN 6 THEN 2 ELSE 1 END)::DATE AS day FROM prices`,
  `INSERT INTO prices SELECT p.permaticker, nd.day, p.close, p.close * 1.02, p.close * 0.99, p.close * 1.01, p.volume, p.close_unadj * 1.01, p.tri * 1.01
     FROM prices p, nd WHERE p.date = nd.last`,
];

beforeAll(async () => {
  expect(
    await runDataCli(['demo', '--companies', '30', '--years', '3', '--seed', '11', '--out', base], {
      out: () => {},
      err: () => {},
      progress: silentProgress,
    }),
  ).toBe(0);
  closeMarketReader();
  // The base: built with the test's block size (a partition differing from the stored one is a full rebuild).
  const first = await buildSnapshots({ marketDb: base, blockSize: BLOCK, incremental: true, progress: silentProgress });
  expect(first.fullReason).toMatch(/set of securities/);
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('incremental snapshot build', () => {
  it('nothing changed: nothing is computed and every row is kept', async () => {
    const r = await changeAndCompare([]);
    expect(r).toMatchObject({ built: 0, fullReason: null });
  }, 300_000);

  it('a new trading day: only that date is computed (the old latest day is dropped unless a month-end)', async () => {
    const r = await changeAndCompare(NEW_DAY);
    expect(r.fullReason).toBeNull();
    expect(r.built).toBe(1);
  }, 300_000);

  it('a late filing (a 10-Q/A filed a year ago for one company): dates from its month on, one block', async () => {
    const r = await changeAndCompare([
      `INSERT INTO facts SELECT permaticker, concept, value * 1.1, unit, period_start, period_end, fiscal_year, fiscal_period, '10-Q/A',
              (SELECT max(date) - INTERVAL 365 DAY FROM prices)::DATE, '0009999999-99-000001', source, source_tag
         FROM facts WHERE permaticker = (SELECT min(permaticker) FROM facts) AND concept = 'revenue'
        ORDER BY filed DESC LIMIT 1`,
    ]);
    expect(r.fullReason).toBeNull();
    expect(r.built).toBeGreaterThan(10);
    expect(r.built).toBeLessThan(r.dates);
  }, 300_000);

  it('a new day and a late filing that restates EPS by a clean ratio (an inferred split): the whole block, every date', async () => {
    const r = await changeAndCompare([
      ...NEW_DAY,
      // Both EPS values of the company's latest year restated 1:3 on the new day: the filings imply a 3-for-1 split (a ratio whose
      // inverse is not exact in binary, so moving every value onto the new final basis changes bits).
      `INSERT INTO facts SELECT f.permaticker, f.concept, f.value / 3, f.unit, f.period_start, f.period_end, f.fiscal_year, f.fiscal_period, '10-K',
              (SELECT max(date) FROM prices), '0009999999-99-000002', f.source, f.source_tag
         FROM facts f WHERE f.permaticker = (SELECT max(permaticker) FROM facts) AND f.concept IN ('eps_basic', 'eps_diluted') AND f.fiscal_period = 'FY'
          AND f.period_end = (SELECT max(period_end) FROM facts g WHERE g.permaticker = f.permaticker AND g.fiscal_period = 'FY')`,
    ]);
    expect(r.fullReason).toBeNull();
    expect(r.built).toBe(r.dates);
  }, 300_000);

  it('a split action and a corrected past price for one security: every block from the correction (market returns) on', async () => {
    const r = await changeAndCompare([
      `INSERT INTO corporate_actions SELECT min(permaticker), (SELECT max(date) - INTERVAL 200 DAY FROM prices)::DATE, 'split', 3, NULL, 'test' FROM securities`,
      `UPDATE prices SET close = close * 1.001 WHERE permaticker = (SELECT max(permaticker) FROM securities)
          AND date = (SELECT min(date) FROM prices WHERE date >= (SELECT max(date) - INTERVAL 100 DAY FROM prices))`,
    ]);
    expect(r.fullReason).toBeNull();
    expect(r.built).toBe(r.dates);
  }, 300_000);

  it('a dividend on the last day of one security: only the latest date is recomputed', async () => {
    const r = await changeAndCompare([
      `INSERT INTO corporate_actions SELECT min(permaticker), (SELECT max(date) FROM prices), 'dividend', 0.42, NULL, 'test' FROM securities`,
    ]);
    expect(r).toMatchObject({ built: 1, fullReason: null });
  }, 300_000);

  it('weekly snapshots asked for later: the dates between the stored ones, and every date after the first of them, are computed', async () => {
    // The month-ends after the first new week are stored as changes from the month before; with
    // weeks in between they would no longer follow their own previous date.
    const r = await changeAndCompare([], { weekly: true });
    expect(r.fullReason).toBeNull();
    // Three years of weeks and month-ends, nearly all of them from the first week on.
    expect(r.dates).toBeGreaterThan(150);
    expect(r.built).toBeGreaterThan(r.dates - 3);
  });

  it('a new security: the blocks change, a full rebuild (and says why)', async () => {
    const r = await changeAndCompare([
      `INSERT INTO securities (permaticker, ticker, name, currency, source) VALUES (999999, 'NEWCO', 'New Company', 'USD', 'test')`,
      `INSERT INTO prices SELECT 999999, date, close, high, low, close, volume, close_unadj, tri FROM prices
         WHERE permaticker = (SELECT min(permaticker) FROM prices) AND date >= (SELECT max(date) - INTERVAL 30 DAY FROM prices)`,
    ]);
    expect(r.fullReason).toMatch(/set of securities/);
  }, 300_000);
});
