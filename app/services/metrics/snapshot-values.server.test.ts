import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBBlobValue, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMarketReader } from '../market/store/open-store.server';
import { storedDayIndex, storedSnapshotAt, storedSnapshotColumns } from './snapshot-columns.server';
import { METRIC_IDS } from './catalogue';
import { chainPeriodStart, isDeltaColumn } from './snapshot-deltas';
import { encodeSnapshotValues } from './snapshot-values';
import { buildSnapshots, listSnapshotDates, loadSnapshot } from './snapshots.server';
import { writeFixtureStore } from './testing/fixture-store.server';
import { syntheticUniverse } from './testing/synthetic-universe';
import { toEpochDay } from '../dates';

// The stored format end to end: a build writes Float32 blobs (in full, or the changes from the
// date before: snapshot-deltas.ts), and a value stored as 12.34 reads
// back as 12.34 through both readers (a page's snapshot and a backtest's column cache), so a
// rule on that boundary treats it as the 12.34 it is. A store of the older Float64 format reads
// the same.

let dir: string;
let file: string;
let latest: string;
// Two years across 2025-01-01, where a chain period (CHAIN_YEARS) starts.

async function withWriter(work: (conn: Awaited<ReturnType<DuckDBInstance['connect']>>) => Promise<void>): Promise<void> {
  closeMarketReader();
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    await work(conn);
    await conn.run('CHECKPOINT');
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-snapshot-values-'));
  file = path.join(dir, 'market.duckdb');
  await writeFixtureStore(file, syntheticUniverse({ securities: 6, years: 2, seed: 5, endDate: '2025-12-31' }));
  await buildSnapshots({ marketDb: file });
  latest = (await listSnapshotDates('any', { marketDb: file })).at(-1) as string;
});

afterAll(() => {
  closeMarketReader();
  rmSync(dir, { recursive: true, force: true });
});

/** Sets the latest day's pe_ttm of the first rows, as blobs of `encode`. */
async function storePe(values: number[], encode: (v: Float64Array) => Uint8Array): Promise<void> {
  await withWriter(async (conn) => {
    const r = await conn.runAndReadAll(
      `SELECT octet_length(data)::INTEGER FROM metric_snapshot_values WHERE metric = 'pe_ttm' AND date = $1::DATE AND block = 0`,
      [latest],
    );
    const bytes = Number(r.getRows()[0][0]);
    const rows = bytes / 4;
    const column = new Float64Array(rows).fill(Number.NaN);
    column.set(values);
    await conn.run(`UPDATE metric_snapshot_values SET data = $2 WHERE metric = 'pe_ttm' AND date = $1::DATE AND block = 0`, [
      latest,
      new DuckDBBlobValue(encode(column)),
    ]);
  });
}

/** Rows 0..2 of the column that pass `value op bound`, as a screen's rule compares them. */
const screen = (col: Float64Array, op: '<' | '<=' | '>=', bound: number) =>
  [0, 1, 2].filter((r) => (op === '<' ? col[r] < bound : op === '<=' ? col[r] <= bound : col[r] >= bound));

describe('stored snapshot values', () => {
  it('are Float32 blobs, four bytes a row, or the changes from the previous date, never across a chain period nor on the latest day', async () => {
    await withWriter(async (conn) => {
      const r = await conn.runAndReadAll(
        `SELECT v.date::VARCHAR, v.block, v.metric, octet_length(v.data)::INTEGER, octet_length(b.permatickers)::INTEGER, v.data
           FROM metric_snapshot_values v JOIN metric_snapshot_blocks b USING (date, block) ORDER BY v.metric, v.block, v.date`,
      );
      let deltas = 0;
      let previous: unknown[] | null = null;
      for (const row of r.getRows()) {
        const [date, block, metric, bytes, rows] = row as [string, number, string, number, number];
        const delta = isDeltaColumn((row[5] as { bytes: Uint8Array }).bytes);
        expect(delta || bytes === rows, `${date} ${metric}`).toBe(true);
        if (delta) {
          deltas++;
          expect(date).not.toBe(latest);
          expect(previous?.slice(1, 3)).toEqual([block, metric]);
          expect(chainPeriodStart(toEpochDay(previous?.[0] as string))).toBe(chainPeriodStart(toEpochDay(date)));
        }
        previous = row;
      }
      // Most of a month's fundamentals repeat the month before.
      expect(deltas).toBeGreaterThan(r.getRows().length / 3);
    });
  });

  it('read the same, on every stored date, through a page (one date) as through a backtest (every date of a metric)', async () => {
    const columns = await storedSnapshotColumns(METRIC_IDS, file);
    const dates = await listSnapshotDates('any', { marketDb: file });
    expect(dates.length).toBe(columns.index.days.length);
    for (let k = 0; k < dates.length; k++) {
      const page = await loadSnapshot(dates[k], { marketDb: file });
      const backtest = storedSnapshotAt(columns, k);
      expect(Array.from(page.permatickers)).toEqual(Array.from(backtest.permatickers));
      for (const id of METRIC_IDS) expect(Array.from(page.values[id]), `${dates[k]} ${id}`).toEqual(Array.from(backtest.values[id]));
    }
  });

  it('read back as the decimal stored, so `pe <= 12.34` keeps a stored 12.34 and `pe < 12.34` does not', async () => {
    await storePe([12.34, 12.35, 12.33], encodeSnapshotValues);
    const page = await loadSnapshot(latest, { marketDb: file, metrics: ['pe_ttm'] });
    expect(Array.from(page.values.pe_ttm.subarray(0, 3))).toEqual([12.34, 12.35, 12.33]);
    expect(JSON.stringify(page.values.pe_ttm[0])).toBe('12.34');
    expect(screen(page.values.pe_ttm, '<=', 12.34)).toEqual([0, 2]);
    expect(screen(page.values.pe_ttm, '<', 12.34)).toEqual([2]);
    expect(screen(page.values.pe_ttm, '>=', 12.34)).toEqual([0, 1]);

    const columns = await storedSnapshotColumns(['pe_ttm'], file);
    const k = storedDayIndex(columns.index, (await loadSnapshot(latest, { marketDb: file })).day);
    const backtest = storedSnapshotAt(columns, k);
    expect(Array.from(backtest.values.pe_ttm.subarray(0, 3))).toEqual([12.34, 12.35, 12.33]);
    expect(screen(backtest.values.pe_ttm, '<', 12.34)).toEqual([2]);
  });

  it('of the older Float64 format read as the same decimals', async () => {
    await storePe([12.34, Math.PI, 12.33], (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    const page = await loadSnapshot(latest, { marketDb: file, metrics: ['pe_ttm'] });
    expect(Array.from(page.values.pe_ttm.subarray(0, 3))).toEqual([12.34, 3.141593, 12.33]);
  });
});
