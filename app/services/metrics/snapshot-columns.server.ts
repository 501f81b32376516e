import type { DuckDBConnection } from '@duckdb/node-api';
import { fromEpochDay } from '../dates';
import { notFound } from '../http/errors';
import { cachedColumns } from '../market/store/column-cache.server';
import { marketReader } from '../market/store/open-store.server';
import { getMetric } from './catalogue';
import type { MetricSnapshot } from './engine/types';
import { ColumnChain } from './snapshot-deltas';
import { blobBytes, tableExists } from './store-loader.server';

// The stored snapshots (month-ends and the latest day) of one metric across all their dates, as
// one column-cache file per metric plus one for the rows (dates and permatickers): a backtest
// over 25 years reads each metric it uses in one file read instead of a query per date. Built
// from the snapshot tables on first use per store version (see market/store/column-cache.server.ts).

export type StoredSnapshotIndex = {
  /** Stored snapshot days, ascending (epoch days). */
  days: Int32Array;
  /** Row offsets of each day, one more than `days`. */
  rowStart: Int32Array;
  /** Permatickers of all days' rows, ascending within a day. */
  perms: Int32Array;
  /** Rows of each stored (date, block) in store order: how the value blobs split. */
  blockRows: Int32Array;
};

const DAY = `datediff('day', DATE '1970-01-01', date)::INTEGER`;

async function readIndex(conn: DuckDBConnection): Promise<StoredSnapshotIndex> {
  if (!(await tableExists(conn, 'metric_snapshot_blocks')))
    return { days: new Int32Array(0), rowStart: new Int32Array(1), perms: new Int32Array(0), blockRows: new Int32Array(0) };
  const r = await conn.runAndReadAll(`SELECT ${DAY}, permatickers FROM metric_snapshot_blocks ORDER BY date, block`);
  const c = r.getColumns();
  const dayCol = c[0] ?? [];
  const parts = (c[1] ?? []).map((v) => blobBytes(v));
  const total = parts.reduce((n, p) => n + p.byteLength / 4, 0);
  const perms = new Int32Array(total);
  const days: number[] = [];
  const rowStart: number[] = [];
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const day = Number(dayCol[i]);
    if (days.length === 0 || days[days.length - 1] !== day) {
      days.push(day);
      rowStart.push(at);
    }
    // Blob bytes may be an unaligned view: copy them through a fresh buffer.
    perms.set(new Int32Array(new Uint8Array(parts[i]).buffer), at);
    at += parts[i].byteLength / 4;
  }
  rowStart.push(at);
  return {
    days: Int32Array.from(days),
    rowStart: Int32Array.from(rowStart),
    perms,
    blockRows: Int32Array.from(parts, (p) => p.byteLength / 4),
  };
}

async function readMetric(conn: DuckDBConnection, metric: string, index: StoredSnapshotIndex): Promise<Float64Array> {
  const out = new Float64Array(index.perms.length).fill(Number.NaN);
  if (!(await tableExists(conn, 'metric_snapshot_values'))) return out;
  const r = await conn.runAndReadAll(`SELECT block, data FROM metric_snapshot_values WHERE metric = $1 ORDER BY date, block`, [metric]);
  const [blocks = [], blobs = []] = r.getColumns();
  if (blobs.length !== index.blockRows.length)
    throw new Error(`Stored snapshot values of ${metric} do not match their rows (${blobs.length} blocks of ${index.blockRows.length})`);
  // Read in date order, so a column stored as changes follows its block's previous row.
  const chains = new Map<number, ColumnChain>();
  let at = 0;
  let k = 0;
  for (let i = 0; i < blobs.length; i++) {
    while (index.rowStart[k + 1] <= at) k++;
    const block = Number(blocks[i]);
    let chain = chains.get(block);
    if (!chain) chains.set(block, (chain = new ColumnChain()));
    chain.decode(blobBytes(blobs[i]), index.perms.subarray(at, at + index.blockRows[i]), index.days[k], out, at);
    at += index.blockRows[i];
  }
  if (at !== out.length) throw new Error(`Stored snapshot values of ${metric} do not match their rows (${at} of ${out.length})`);
  return out;
}

export type StoredSnapshotColumns = { index: StoredSnapshotIndex; values: Record<string, Float64Array> };

/** The column-cache names of the stored snapshots' rows and of the given metrics' values. */
export function storedSnapshotCacheNames(metrics: readonly string[]): string[] {
  return ['snapshot-blocks', ...metrics.map((id) => `snapshot-values.${id}`)];
}

/** The stored snapshots' rows and the given metrics' values, for the store's current version. */
export async function storedSnapshotColumns(metrics: readonly string[], file?: string): Promise<StoredSnapshotColumns> {
  for (const id of metrics) if (!getMetric(id)) throw notFound(`Unknown metric: ${id}`);
  const reader = await marketReader(file);
  const withConn = async <T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> => {
    const conn = await reader.connect();
    try {
      return await work(conn);
    } finally {
      conn.closeSync();
    }
  };
  const [indexName, ...valueNames] = storedSnapshotCacheNames(metrics);
  const cachedIndex = await cachedColumns(reader.file, indexName, () => withConn(readIndex));
  const index = cachedIndex as StoredSnapshotIndex;
  const values: Record<string, Float64Array> = {};
  for (const [k, id] of metrics.entries()) {
    const set = await cachedColumns(reader.file, valueNames[k], async () => ({
      values: await withConn((conn) => readMetric(conn, id, index)),
    }));
    values[id] = set.values as Float64Array;
  }
  return { index, values };
}

/**
 * The same read on a connection the caller holds, without the cache: the derived-data build
 * reads every month-end of a few metrics from the store it is writing.
 */
export async function readStoredColumnsOn(conn: DuckDBConnection, metrics: readonly string[]): Promise<StoredSnapshotColumns> {
  const index = await readIndex(conn);
  const values: Record<string, Float64Array> = {};
  for (const id of metrics) values[id] = await readMetric(conn, id, index);
  return { index, values };
}

/** Position of a stored day in the index, or -1. */
export function storedDayIndex(index: StoredSnapshotIndex, day: number): number {
  let lo = 0;
  let hi = index.days.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (index.days[mid] === day) return mid;
    if (index.days[mid] < day) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The stored snapshot of index position k, as views into the columns (no copy). */
export function storedSnapshotAt(columns: StoredSnapshotColumns, k: number): MetricSnapshot {
  const { index } = columns;
  const a = index.rowStart[k];
  const b = index.rowStart[k + 1];
  const values: Record<string, Float64Array> = {};
  for (const [id, col] of Object.entries(columns.values)) values[id] = col.subarray(a, b);
  return { date: fromEpochDay(index.days[k]), day: index.days[k], permatickers: index.perms.subarray(a, b), values };
}
