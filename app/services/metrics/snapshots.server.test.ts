import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromEpochDay, toEpochDay } from '../dates';
import { DomainError } from '../http/errors';
import { closeMarketReader } from '../market/store/open-store.server';
import { METRIC_IDS } from './catalogue';
import { equalWeightMarket, evaluateAt } from './engine/evaluate';
import type { MetricSnapshot } from './engine/types';
import { snapshotValue } from './snapshot-values';
import { buildSnapshots, iterateSnapshots, listSnapshotDates, loadSnapshot, metricSeries } from './snapshots.server';
import { computeMarketReturns, MARKET_RETURNS_SQL } from './store-loader.server';
import { writeFixtureStore } from './testing/fixture-store.server';
import { syntheticUniverse } from './testing/synthetic-universe';

// Build snapshots on a real DuckDB file and read them back; compare with the engine run on the
// same universe in memory.

const securities = syntheticUniverse({ securities: 24, years: 7, seed: 11 });
const universe = { securities, market: equalWeightMarket(securities) };
let dir: string;
let file: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-metrics-'));
  file = path.join(dir, 'market.duckdb');
  await writeFixtureStore(file, securities);
  const lines: string[] = [];
  await buildSnapshots({
    marketDb: file,
    blockSize: 10, // several blocks, so concatenation is exercised
    progress: {
      start: (l, t) => lines.push(`${l}:${t}`),
      tick: () => {},
      stop: () => {},
      log: (m) => lines.push(m),
    },
  });
  expect(lines[0]).toBe('Metric snapshots:24');
});

afterAll(() => {
  closeMarketReader();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `a` (read from the store) holds the snapshot values (Float32, back to 7 significant digits) of
 * `b` (the engine in memory, full precision): equal to them but where floating-point summation
 * order (the store's market average is summed in SQL) tips a value into the next Float32.
 */
function expectSameSnapshot(a: MetricSnapshot, b: MetricSnapshot): void {
  expect(Array.from(a.permatickers)).toEqual(Array.from(b.permatickers));
  let values = 0;
  let exact = 0;
  for (const id of METRIC_IDS) {
    const x = a.values[id];
    const y = b.values[id];
    for (let i = 0; i < x.length; i++) {
      if (Number.isNaN(x[i]) || Number.isNaN(y[i])) {
        expect([id, Number.isNaN(x[i])]).toEqual([id, Number.isNaN(y[i])]);
        continue;
      }
      const q = snapshotValue(y[i]);
      values++;
      if (x[i] === q) exact++;
      else expect(Math.abs(x[i] - q) <= Math.max(1e-9, 2.5e-7 * Math.abs(q)), `${id}: ${x[i]} vs ${y[i]}`).toBe(true);
    }
  }
  expect(exact / values).toBeGreaterThan(0.99);
}

describe('metric snapshots in DuckDB', () => {
  it('stores the last trading day of every month and the latest day', async () => {
    const months = await listSnapshotDates('month_end', { marketDb: file });
    const allDays = [...new Set(securities.flatMap((s) => Array.from(s.dates)))].sort((a, b) => a - b);
    const expected = allDays
      .filter((d, i) => i === allDays.length - 1 || fromEpochDay(d).slice(0, 7) !== fromEpochDay(allDays[i + 1]).slice(0, 7))
      .map(fromEpochDay);
    expect(months).toEqual(expected);
    const latest = await loadSnapshot('latest', { marketDb: file });
    expect(latest.date).toBe(fromEpochDay(allDays[allDays.length - 1]));
  });

  it('reads back exactly what the engine computes for a month-end', async () => {
    const date = (await listSnapshotDates('month_end', { marketDb: file }))[40];
    const stored = await loadSnapshot(date, { marketDb: file });
    expectSameSnapshot(stored, evaluateAt(universe, date));
  });

  it('computes a date between month-ends on demand from a window of the store, with the same result', async () => {
    const stored = await listSnapshotDates('any', { marketDb: file });
    const mid = fromEpochDay(toEpochDay(stored[60]) + 10);
    expect(stored).not.toContain(mid);
    const onDemand = await loadSnapshot(mid, { marketDb: file });
    expectSameSnapshot(onDemand, evaluateAt(universe, mid));
    const nearest = await loadSnapshot(mid, { marketDb: file, exact: false });
    expect(nearest.date).toBe(stored[60]);
  });

  it('hands out the same cached object for the same date until the store changes', async () => {
    const a = await loadSnapshot('latest', { marketDb: file });
    expect(await loadSnapshot('latest', { marketDb: file })).toBe(a);
    const mid = fromEpochDay(a.day - 10);
    expect(await loadSnapshot(mid, { marketDb: file })).toBe(await loadSnapshot(mid, { marketDb: file }));
  });

  it('iterates month-end snapshots with only the metrics asked for', async () => {
    const seen: string[] = [];
    for await (const s of iterateSnapshots({
      marketDb: file,
      from: '2022-01-01',
      to: '2022-12-31',
      metrics: ['pe_ttm', 'ret_12m'],
    })) {
      expect(Object.keys(s.values)).toEqual(['pe_ttm', 'ret_12m']);
      expect(s.values.pe_ttm.length).toBe(s.permatickers.length);
      seen.push(s.date.slice(0, 7));
    }
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => `2022-${String(i + 1).padStart(2, '0')}`));
  });

  it('answers a series with filed dates and accessions, known only after filing', async () => {
    const s = securities.find((x) => !x.delisted && x.dates[0] < toEpochDay('2019-01-01'))!;
    const series = await metricSeries(s.permaticker, 'revenue_ttm', {
      marketDb: file,
      from: '2020-01-01',
      to: '2023-12-31',
    });
    expect(series.points.length).toBeGreaterThan(8);
    for (const p of series.points) {
      if (p.value === null) continue;
      expect(p.filed! < p.date).toBe(true);
      expect(p.accession).not.toBeNull();
    }
    const daily = await metricSeries(s.permaticker, 'price', {
      marketDb: file,
      from: '2023-01-01',
      to: '2023-01-31',
    });
    expect(daily.points.every((p) => p.value !== null && p.filed === null)).toBe(true);
    expect(daily.points.length).toBe(
      Array.from(s.dates).filter((d) => d >= toEpochDay('2023-01-01') && d <= toEpochDay('2023-01-31')).length,
    );
  });

  it('stores weekly snapshots when asked', async () => {
    closeMarketReader(); // a read-only handle in this process would block the writer
    await buildSnapshots({ marketDb: file, weekly: true });
    const weeks: string[] = [];
    for await (const s of iterateSnapshots({
      marketDb: file,
      from: '2022-01-01',
      to: '2022-12-31',
      frequency: 'weekly',
      metrics: ['price'],
    })) {
      weeks.push(s.date);
    }
    expect(weeks.length).toBe(52); // 2022 has 52 Monday-based weeks ending inside it
    expect(new Set(weeks.map((d) => new Date(`${d}T00:00:00Z`).getUTCDay()))).toEqual(new Set([5]));
  });

  it('streams the market returns to the same bits as the SQL list average', async () => {
    closeMarketReader();
    const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    const conn = await instance.connect();
    try {
      // Read a few securities at a time, as on a large store (the default reads this one at once).
      const computed = await computeMarketReturns(conn, 5_000);
      const sql = (
        await conn.runAndReadAll(`SELECT datediff('day', DATE '1970-01-01', date)::INTEGER, ret FROM (${MARKET_RETURNS_SQL}) ORDER BY date`)
      ).getRows();
      expect(computed.days.length).toBeGreaterThan(1500);
      expect(Array.from(computed.days)).toEqual(sql.map((r) => Number(r[0])));
      // Bits, not closeness: Object.is tells -0 from 0 and compares NaN to itself.
      expect(Array.from(computed.ret).every((v, i) => Object.is(v, Number(sql[i][1])))).toBe(true);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('streams the market returns to the bits of the SQL on awkward prices too: zeros, missing indices, one-day securities, rows out of order', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      await conn.run(`CREATE TABLE prices (permaticker INTEGER, date DATE, close DOUBLE NOT NULL, tri DOUBLE)`);
      await conn.run(`INSERT INTO prices VALUES
        (9, DATE '2024-01-03', 10.5, NULL), (9, DATE '2024-01-02', 10, NULL), (9, DATE '2024-01-04', 0, NULL), (9, DATE '2024-01-05', 3, NULL),
        (2, DATE '2024-01-02', 7, 100), (2, DATE '2024-01-03', 7.1, 101.3), (2, DATE '2024-01-04', 7.2, NULL), (2, DATE '2024-01-05', 7.3, 0.1),
        (5, DATE '2024-01-04', 1, 1), (3, DATE '2024-01-05', 0, 0), (3, DATE '2024-01-06', 0, 0), (3, DATE '2024-01-08', 1e-300, 1e-300)`);
      const computed = await computeMarketReturns(conn);
      const sql = (
        await conn.runAndReadAll(`SELECT datediff('day', DATE '1970-01-01', date)::INTEGER, ret FROM (${MARKET_RETURNS_SQL}) ORDER BY date`)
      ).getRows();
      expect(Array.from(computed.days)).toEqual(sql.map((r) => Number(r[0])));
      expect(Array.from(computed.ret).map((v, i) => [v, Object.is(v, Number(sql[i][1]))])).toEqual(sql.map((r) => [Number(r[1]), true]));
      expect(computed.days.length).toBe(3);
      // Read a security or two at a time, the same bits.
      for (const rowsPerRead of [1, 4, 5]) {
        const ranged = await computeMarketReturns(conn, rowsPerRead);
        expect(Array.from(ranged.days)).toEqual(Array.from(computed.days));
        expect(Array.from(ranged.ret).every((v, i) => Object.is(v, computed.ret[i]))).toBe(true);
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('keeps the stored snapshots, and no half-built tables, when a rebuild fails midway', async () => {
    const datesBefore = await listSnapshotDates('any', { marketDb: file });
    const latestBefore = await loadSnapshot('latest', { marketDb: file, metrics: ['pe_ttm', 'ret_12m'] });
    closeMarketReader();
    let blocks = 0;
    const failing = {
      start: () => {},
      // Two blocks of ten are stored (and committed) before the build gives up.
      tick: () => {
        if (++blocks === 3) throw new Error('the disk is full');
      },
      stop: () => {},
      log: () => {},
    };
    // Had the two stored blocks been published, the snapshots would lack the third block's securities.
    await expect(buildSnapshots({ marketDb: file, blockSize: 10, progress: failing })).rejects.toThrow('the disk is full');
    expect(await listSnapshotDates('any', { marketDb: file })).toEqual(datesBefore);
    const latestAfter = await loadSnapshot('latest', { marketDb: file, metrics: ['pe_ttm', 'ret_12m'] });
    expect(Array.from(latestAfter.permatickers)).toEqual(Array.from(latestBefore.permatickers));
    expect(Array.from(latestAfter.values.pe_ttm)).toEqual(Array.from(latestBefore.values.pe_ttm));
    closeMarketReader();
    const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    const conn = await instance.connect();
    try {
      const tables = (await conn.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE table_name LIKE '%__new'`)).getRows();
      expect(tables).toEqual([]);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('says why an incremental build computed every date: none stored on a new store, then keeps them all', async () => {
    const fresh = path.join(dir, 'fresh.duckdb');
    await writeFixtureStore(fresh, securities.slice(0, 6));
    const first = await buildSnapshots({ marketDb: fresh, incremental: true, workers: 0 });
    expect(first.fullReason).toBe('no stored snapshots');
    expect(first.built).toBe(first.dates);
    const again = await buildSnapshots({ marketDb: fresh, incremental: true, workers: 0 });
    expect(again).toEqual({ dates: first.dates, built: 0, fullReason: null });
  });

  it('rejects unknown securities and metrics with 404', async () => {
    await expect(metricSeries(1, 'revenue_ttm', { marketDb: file })).rejects.toMatchObject({ status: 404 });
    await expect(
      metricSeries(securities[0].permaticker, 'no_such_metric', {
        marketDb: file,
      }),
    ).rejects.toBeInstanceOf(DomainError);
    await expect(loadSnapshot('latest', { marketDb: file, metrics: ['nope'] })).rejects.toMatchObject({ status: 404 });
    await expect(loadSnapshot('2024-02-30', { marketDb: file })).rejects.toMatchObject({ status: 422 });
    await expect(metricSeries(securities[0].permaticker, 'price', { marketDb: file, from: 'soon' })).rejects.toMatchObject({ status: 422 });
  });
});
