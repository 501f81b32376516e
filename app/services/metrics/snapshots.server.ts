import { statSync } from 'node:fs';
import { DuckDBDateValue, DuckDBInstance, type DuckDBAppender, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { config } from '../config.server';
import { fromEpochDay, isIsoDate, toEpochDay, type IsoDate } from '../dates';
import { DomainError, notFound, unprocessable } from '../http/errors';
import { appendTypedColumns } from '../market/store/bulk-append.server';
import { boundBuildMemory, MarketDataMissingError, marketReader } from '../market/store/open-store.server';
import { cachedAnswer } from '../market/store/answer-cache.server';
import type { ProgressReporter } from '../market/store/records';
import { MARKET_DDL } from '../market/store/schema';
import { getMetric, METRIC_IDS, type MetricDefinition } from './catalogue';
import { UniverseEvaluator } from './engine/evaluate';
import type { EvaluatedDay } from './snapshot-evaluate.worker';
import { openSnapshotEvaluators, type BlockResults, type SnapshotEvaluators } from './snapshot-evaluators.server';
import type { FactMode } from './engine/facts';
import { metricSeriesOf, type SeriesPoint } from './engine/series';
import type { MarketReturns, MetricSnapshot } from './engine/types';
import { parseSnapshotMeta, SNAPSHOT_META_SQL, snapshotMetaRows, storedSnapshotsServe, type SnapshotMeta } from './snapshot-meta';
import { SNAPSHOT_DDL, SNAPSHOT_TABLES } from './snapshot-schema';
import { snapshotDays } from './snapshot-dates';
import { INPUT_DIGEST_SQL, partitionKey, planRebuild, shareBasisKey, WHOLE_HISTORY, type RebuildPlan } from './snapshot-inputs.server';
import { quantizeInPlace } from './snapshot-values';
import { chainPeriodStart, ColumnChain, isDeltaColumn } from './snapshot-deltas';
import {
  blobBytes,
  findSecurity,
  cachedTradingCalendar,
  listSecurities,
  loadBlock,
  loadMarketReturns,
  computeMarketReturns,
  type SecurityRow,
} from './store-loader.server';

// Precomputed point-in-time snapshots: built after every import (latest + every month-end, and
// optionally every week), read by the screener, company pages and backtests. Dates without a
// stored snapshot are computed on demand from the store and kept in a small in-memory cache.

export type { MetricSnapshot } from './engine/types';
export type SnapshotFrequency = 'month_end' | 'weekly' | 'any';

// Securities per block: each evaluator thread holds a block's whole history. At 500, the build of
// the 6,000-company × 25-year demo peaked 300 MB higher, and took no less time.
const DEFAULT_BLOCK = 250;
/** Price history loaded for an on-demand date: 5-year returns, 3-year beta and 5-year dividend growth need ~6.3 years. */
const ON_DEMAND_PRICE_DAYS = 2300;
/**
 * Facts whose period ended more than 9 years before the date cannot affect any metric: the
 * engine's view keeps VIEW_HISTORY_DAYS before the latest period, which is at most
 * STALE_AFTER_DAYS old while fundamentals count.
 */
const ON_DEMAND_FACT_DAYS = 9 * 366;

const dayExpr = (col: string) => `datediff('day', DATE '1970-01-01', ${col})::INTEGER`;

// ---------------------------------------------------------------------------------------------
// Build

export type BuildSnapshotsOptions = {
  marketDb: string;
  progress?: ProgressReporter;
  /** Also store the last trading day of every week (for weekly backtests). */
  weekly?: boolean;
  /** Securities evaluated together (bounds memory: ~blockSize × history × 36 bytes). */
  blockSize?: number;
  /** Keep the stored rows whose inputs did not change (snapshot-inputs.server.ts); else compute every date. */
  incremental?: boolean;
  /** Evaluator threads (0: evaluate in this thread); defaultSnapshotWorkers() by default. The stored bytes are the same either way. */
  workers?: number;
  /**
   * A second connection to the same database, for reading the market returns while the build's
   * own connection computes the input digests (buildSnapshots opens one); without it they run in
   * turn (a connection runs one statement at a time).
   */
  reader?: DuckDBConnection;
};

async function cols(conn: DuckDBConnection, sql: string, params?: DuckDBValue[]): Promise<DuckDBValue[][]> {
  const reader = await conn.runAndReadAll(sql, params);
  const c = reader.getColumns();
  return c.length === reader.columnCount ? c : Array.from({ length: reader.columnCount }, () => []);
}

/** Opens the file read-write, builds the snapshots (latest + month-ends [+ weeks]) and closes it. */
export async function buildSnapshots(opts: BuildSnapshotsOptions): Promise<SnapshotBuildResult> {
  const instance = await DuckDBInstance.create(opts.marketDb);
  const conn = await instance.connect();
  const reader = await instance.connect();
  try {
    return await buildSnapshotsOn(conn, { ...opts, reader });
  } finally {
    reader.closeSync();
    conn.closeSync();
    instance.closeSync();
  }
}

/** What a build did: how many snapshot dates it stored, how many of them it computed. */
export type SnapshotBuildResult = {
  /** Snapshot dates stored. */
  dates: number;
  /** Dates computed (for at least one block of securities); the others were kept as stored. */
  built: number;
  /** Why every date was computed (no stored snapshots, another engine, …); null for an incremental build. */
  fullReason: string | null;
};

/**
 * The same on a connection the caller already holds read-write (an importer's WritableStore
 * before it publishes): DuckDB must not open one file twice in a process.
 *
 * With `incremental`, stored snapshot rows whose inputs did not change are kept and only the
 * rest is computed (see snapshot-inputs.server.ts for what "changed" means); the result is the
 * same, row for row and bit for bit, as a full build.
 */
export async function buildSnapshotsOn(
  conn: DuckDBConnection,
  opts: Omit<BuildSnapshotsOptions, 'marketDb'> = {},
): Promise<SnapshotBuildResult> {
  const progress = opts.progress;
  await conn.run(MARKET_DDL);
  await conn.run(SNAPSHOT_DDL);
  // Build into staging tables, committed a block at a time, and swap them in at the end in one
  // transaction: a build that fails or dies leaves the stored snapshots as they were. Committed,
  // the rows can leave DuckDB's memory for the file, which is what lets the build run under
  // BUILD_MEMORY_LIMIT (in one transaction it ran out of memory under any bound tried), as does
  // reading the market returns from a sorted stream (computeMarketReturns).
  for (const t of SNAPSHOT_TABLES) await conn.run(`CREATE OR REPLACE TABLE ${t}__new AS SELECT * FROM ${t} LIMIT 0`);
  let opening: Promise<SnapshotEvaluators> | null = null;
  let result: SnapshotBuildResult;
  try {
    await boundBuildMemory(conn);
    // The evaluator threads start while DuckDB computes the market returns and the input digests.
    opening = openSnapshotEvaluators(opts.workers);
    opening.catch(() => undefined);
    // With a second connection the two run at once: the returns are mostly a sort in DuckDB and a
    // sum in this thread, the digests a grouping in DuckDB (one after the other, 1.9 and 1.5 s of
    // the 6,000 × 25-year demo's build).
    const digests = conn.run(`INSERT INTO metric_snapshot_inputs__new ${INPUT_DIGEST_SQL}`);
    if (!opts.reader) await digests;
    // Both settled before going on: the clean-up below needs the build's connection idle.
    const [returns, digested] = await Promise.allSettled([computeMarketReturns(opts.reader ?? conn), digests]);
    if (returns.status === 'rejected') throw returns.reason;
    if (digested.status === 'rejected') throw digested.reason;
    const market = returns.value;
    await appendTypedColumns(conn, 'metric_market_returns__new', [
      { kind: 'date', values: market.days },
      { kind: 'double', values: market.ret },
    ]);
    result = await buildStaged(conn, opts, opening);
    await conn.run('BEGIN TRANSACTION');
    try {
      for (const t of SNAPSHOT_TABLES) {
        await conn.run(`DROP TABLE IF EXISTS ${t}`);
        await conn.run(`ALTER TABLE ${t}__new RENAME TO ${t}`);
      }
      for (const [key, value] of snapshotMetaRows()) await conn.run(`INSERT OR REPLACE INTO meta VALUES ($1, $2)`, [key, value]);
      await conn.run('COMMIT');
    } catch (e) {
      await conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  } catch (e) {
    for (const t of SNAPSHOT_TABLES) await conn.run(`DROP TABLE IF EXISTS ${t}__new`).catch(() => undefined);
    throw e;
  } finally {
    await (await opening?.catch(() => null))?.close();
  }
  await conn.run('CHECKPOINT');
  progress?.stop();
  return result;
}

/** Fills the staging tables (`{table}__new`, the market returns already in), committing as it goes. */
async function buildStaged(
  conn: DuckDBConnection,
  opts: Omit<BuildSnapshotsOptions, 'marketDb'>,
  opening: Promise<SnapshotEvaluators>,
): Promise<SnapshotBuildResult> {
  const progress = opts.progress;
  const market = await marketFrom(conn, 'metric_market_returns__new');

  const trading = (await cols(conn, `SELECT DISTINCT ${dayExpr('date')} AS d FROM prices ORDER BY d`))[0].map(Number);
  const dates = snapshotDays(trading, opts.weekly ?? false);
  const exchangeDays = Int32Array.from(trading);
  const securities = (await listSecurities(conn)).filter((s) => s.firstDay !== null);
  const blockSize = opts.blockSize ?? DEFAULT_BLOCK;
  const partition = partitionKey(securities, blockSize);
  const plan: RebuildPlan = opts.incremental ? await planRebuild(conn, partition) : { full: true, reason: 'a full rebuild was asked for' };
  progress?.start('Metric snapshots', securities.length);

  const blocks = await conn.createAppender('metric_snapshot_blocks__new');
  const values = await conn.createAppender('metric_snapshot_values__new');
  const inputs = await conn.createAppender('metric_snapshot_inputs__new');
  const appendInput = (permaticker: number, kind: string, digest: string) => {
    inputs.appendInteger(permaticker);
    inputs.appendVarchar(kind);
    inputs.appendDate(new DuckDBDateValue(toEpochDay(WHOLE_HISTORY)));
    inputs.appendVarchar(digest);
    inputs.endRow();
  };
  appendInput(-2, 'b', partition);
  /** Per block, the first day computed (older stored rows are copied); -Infinity for all. */
  const keptBefore: { block: number; day: number }[] = [];
  const evaluators = await opening;
  const chainFrom = chainFromDays(dates);
  const inFlight: { block: number; securities: number; results: BlockResults }[] = [];
  // The appenders commit on their own every ~200,000 rows (closed below): a commit of each block's
  // ~78,000 rows as well took the 6,000 × 25-year demo's snapshots 2 s longer.
  const appendBlock = async (job: (typeof inFlight)[number]) => {
    for await (const day of job.results) if (day.permatickers.length > 0) appendEncoded(blocks, values, day, job.block);
    progress?.tick(job.securities);
  };
  const built = new Set<number>();
  const datesChangedFrom = plan.full ? Number.NEGATIVE_INFINITY : firstDateChange(dates, plan.storedDays);
  for (let b = 0; b * blockSize < securities.length; b++) {
    const slice = securities.slice(b * blockSize, (b + 1) * blockSize);
    let from = Number.NEGATIVE_INFINITY;
    if (!plan.full) {
      from = Math.min(plan.globalFrom, datesChangedFrom);
      for (const s of slice) from = Math.min(from, plan.securityFrom.get(s.permaticker) ?? Number.POSITIVE_INFINITY);
    }
    const toBuild = () => dates.filter((d) => d.day >= from || (!plan.full && !plan.storedDays.has(d.day)));
    if (!plan.full && toBuild().length === 0) {
      // Nothing this block reads changed: its stored rows and share-basis keys stay.
      for (const s of slice) {
        const key = plan.basisKeys.get(s.permaticker);
        if (key !== undefined) appendInput(s.permaticker, 'k', key);
      }
      keptBefore.push({ block: b, day: Number.POSITIVE_INFINITY });
      progress?.tick(slice.length);
      continue;
    }
    const block = await loadBlock(conn, slice, { accessions: false });
    for (const input of block) {
      const key = shareBasisKey(input);
      appendInput(input.permaticker, 'k', key);
      if (!plan.full && plan.basisKeys.get(input.permaticker) !== key) from = Number.NEGATIVE_INFINITY;
    }
    keptBefore.push({ block: b, day: from });
    const days = toBuild().map((d) => d.day);
    for (const day of days) built.add(day);
    inFlight.push({
      block: b,
      securities: slice.length,
      results: evaluators.evaluate({
        securities: block,
        market,
        calendar: exchangeDays,
        days,
        chainFrom: days.map((d) => chainFrom.get(d) ?? -1),
      }),
    });
    // Keep the evaluators busy while this thread loads the next block; append the oldest when they all are.
    while (inFlight.length > evaluators.inFlight) await appendBlock(inFlight.shift()!);
  }
  while (inFlight.length > 0) await appendBlock(inFlight.shift()!);
  blocks.closeSync();
  values.closeSync();
  inputs.closeSync();
  const dateRows = await conn.createAppender('metric_snapshot_dates__new');
  for (const d of dates) {
    dateRows.appendDate(new DuckDBDateValue(d.day));
    dateRows.appendBoolean(d.monthEnd);
    dateRows.appendBoolean(d.weekly);
    dateRows.appendBoolean(d.latest);
    dateRows.endRow();
  }
  dateRows.closeSync();
  if (!plan.full) await keepStoredRows(conn, keptBefore);
  return { dates: dates.length, built: built.size, fullReason: plan.full ? plan.reason : null };
}

/**
 * The first day from which no stored row can be kept because the list of snapshot dates changed
 * at or before it: a column stored as changes names the date before it (snapshot-deltas.ts), so a
 * date added or removed between stored ones (weekly snapshots asked for or dropped) leaves the rows
 * after it unreadable. Dates added after the last stored one (a new latest day), or dropping the
 * old latest day, leave every kept row as it was.
 */
function firstDateChange(dates: readonly { day: number }[], stored: ReadonlySet<number>): number {
  const now = new Set(dates.map((d) => d.day));
  let first = Number.POSITIVE_INFINITY;
  for (const d of now) if (!stored.has(d) && d < first) first = d;
  for (const d of stored) if (!now.has(d) && d < first) first = d;
  for (const d of stored) if (d > first && now.has(d)) return first;
  return Number.POSITIVE_INFINITY;
}

/**
 * Copies the stored rows an incremental build keeps: per block, the dates before its first
 * computed day that are still snapshot dates (the old "latest" day may no longer be one).
 */
async function keepStoredRows(conn: DuckDBConnection, keptBefore: { block: number; day: number }[]): Promise<void> {
  if (keptBefore.length === 0) return;
  // ±Infinity as the int range's ends (days are far inside it); all integers, safe to inline.
  const bound = (day: number) => (Number.isFinite(day) ? day : day > 0 ? 2147483647 : -2147483648);
  const keep = `(VALUES ${keptBefore.map((k) => `(${k.block}, ${bound(k.day)})`).join(', ')}) AS k(block, before_day)`;
  const rows = (t: string) => `
    SELECT o.* FROM ${t} o JOIN ${keep} USING (block)
     WHERE ${dayExpr('o.date')} < k.before_day AND o.date IN (SELECT date FROM metric_snapshot_dates__new)`;
  await conn.run(`INSERT INTO metric_snapshot_blocks__new ${rows('metric_snapshot_blocks')}`);
  await conn.run(`INSERT INTO metric_snapshot_values__new ${rows('metric_snapshot_values')}`);
}

/**
 * Per snapshot day, the date its columns may be stored as changes from (-1: stored in full): the
 * snapshot date before it (snapshot-deltas.ts), except on the first date of a chain period
 * (CHAIN_YEARS: a date reads at most that many years of rows) and on the latest day (the
 * screener reads it whole on every request). The evaluating thread chains a day only when it
 * computed that date for the block just before (a kept or skipped row in between would break the
 * chain).
 */
function chainFromDays(dates: readonly { day: number; latest: boolean }[]): Map<number, number> {
  const from = new Map<number, number>();
  dates.forEach((d, i) => {
    const before = i > 0 ? dates[i - 1].day : -1;
    from.set(d.day, before >= 0 && !d.latest && chainPeriodStart(before) === chainPeriodStart(d.day) ? before : -1);
  });
  return from;
}

function appendEncoded(blocks: DuckDBAppender, values: DuckDBAppender, day: EvaluatedDay, block: number): void {
  const date = new DuckDBDateValue(day.day);
  blocks.appendDate(date);
  blocks.appendInteger(block);
  blocks.appendBlob(new Uint8Array(day.permatickers.buffer, day.permatickers.byteOffset, day.permatickers.byteLength));
  blocks.endRow();
  for (let m = 0; m < METRIC_IDS.length; m++) {
    values.appendDate(date);
    values.appendInteger(block);
    values.appendVarchar(METRIC_IDS[m]);
    values.appendBlob(day.values[m]);
    values.endRow();
  }
}

async function marketFrom(conn: DuckDBConnection, table: string): Promise<MarketReturns | null> {
  const c = await cols(conn, `SELECT ${dayExpr('date')}, ret FROM ${table} ORDER BY date`);
  if (c[0].length === 0) return null;
  const day0 = Number(c[0][0]);
  const ret = new Float64Array(Number(c[0][c[0].length - 1]) - day0 + 1).fill(Number.NaN);
  for (let i = 0; i < c[0].length; i++) ret[Number(c[0][i]) - day0] = Number(c[1][i]);
  return { day0, ret };
}

// ---------------------------------------------------------------------------------------------
// Read

export type ReadOptions = {
  /** DuckDB file; config().marketDb by default. */
  marketDb?: string;
  /** Only these metrics (a backtest needs a few); all catalogue metrics by default. */
  metrics?: readonly string[];
};

type StoredDate = {
  day: number;
  monthEnd: boolean;
  weekly: boolean;
  latest: boolean;
};

async function withReader<T>(file: string | undefined, work: (conn: DuckDBConnection, file: string) => Promise<T>): Promise<T> {
  const path = file ?? config().marketDb;
  const reader = await openReader(path);
  const conn = await reader.connect();
  try {
    return await work(conn, path);
  } finally {
    conn.closeSync();
  }
}

/** No market data yet is the operator's to fix, not a server error: 503 with the how-to. */
async function openReader(file: string) {
  try {
    return await marketReader(file);
  } catch (e) {
    if (e instanceof MarketDataMissingError) throw new DomainError(503, e.detail);
    throw e;
  }
}

function signature(file: string): string {
  try {
    const s = statSync(file);
    return `${file}:${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return file;
  }
}

async function storedDates(conn: DuckDBConnection): Promise<StoredDate[]> {
  const exists = await cols(
    conn,
    `SELECT count(*)::INTEGER FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = 'metric_snapshot_dates'`,
  );
  if (!Number(exists[0][0])) return [];
  const c = await cols(conn, `SELECT ${dayExpr('date')}, month_end, weekly, latest FROM metric_snapshot_dates ORDER BY date`);
  return c[0].map((d, i) => ({
    day: Number(d),
    monthEnd: Boolean(c[1][i]),
    weekly: Boolean(c[2][i]),
    latest: Boolean(c[3][i]),
  }));
}

/** What the stored snapshots were built by (snapshot-meta.ts). */
async function storedMeta(conn: DuckDBConnection): Promise<SnapshotMeta> {
  const exists = await cols(conn, `SELECT count(*)::INTEGER FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = 'meta'`);
  if (!Number(exists[0][0])) return parseSnapshotMeta([]);
  const c = await cols(conn, SNAPSHOT_META_SQL);
  return parseSnapshotMeta(c[0].map((key, i) => ({ key: String(key), value: c[1][i] === null ? null : String(c[1][i]) })));
}

/**
 * Stored dates whose values this code can use for these metrics: none when the snapshots were
 * built by another metrics engine or lack one of the metrics (added since), so those dates are
 * computed instead of read as n/a. The data status asks for a rebuild meanwhile.
 */
async function servingDates(conn: DuckDBConnection, metrics: readonly string[]): Promise<StoredDate[]> {
  const dates = await storedDates(conn);
  return dates.length > 0 && storedSnapshotsServe(await storedMeta(conn), metrics) ? dates : [];
}

function checkMetrics(metrics: readonly string[] | undefined): readonly string[] {
  const ids = metrics ?? METRIC_IDS;
  for (const id of ids) if (!getMetric(id)) throw notFound(`Unknown metric: ${id}`);
  return ids;
}

/** Blob bytes may be a Node Buffer view into a shared pool (unaligned): copy into an own buffer. */
function copyBytes(v: DuckDBValue): ArrayBuffer {
  return new Uint8Array(blobBytes(v)).buffer;
}

async function readStored(conn: DuckDBConnection, day: number, metrics: readonly string[]): Promise<MetricSnapshot> {
  const date = fromEpochDay(day);
  const b = await cols(conn, `SELECT block, permatickers FROM metric_snapshot_blocks WHERE date = $1::DATE ORDER BY block`, [date]);
  const blockRows = b[0].map(Number);
  const parts = b[1].map((v) => new Int32Array(copyBytes(v)));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const permatickers = new Int32Array(total);
  const offset = new Map<number, { at: number; rows: number }>();
  let at = 0;
  parts.forEach((p, i) => {
    offset.set(blockRows[i], { at, rows: p.length });
    permatickers.set(p, at);
    at += p.length;
  });
  const valuesOut: Record<string, Float64Array> = {};
  for (const id of metrics) valuesOut[id] = new Float64Array(total).fill(Number.NaN);
  // Metric ids are catalogue ids (checked), i.e. [a-z0-9_]: safe to inline in the IN list.
  const list = metrics.map((m) => `'${m}'`).join(',');
  const v = await cols(conn, `SELECT block, metric, data FROM metric_snapshot_values WHERE date = $1::DATE AND metric IN (${list})`, [
    date,
  ]);
  const chained: { block: number; metric: string; bytes: Uint8Array; perms: Int32Array; at: number }[] = [];
  for (let i = 0; i < v[0].length; i++) {
    const metric = String(v[1][i]);
    const target = valuesOut[metric];
    const block = Number(v[0][i]);
    const o = offset.get(block);
    if (!target || o === undefined) continue;
    const bytes = blobBytes(v[2][i]);
    const perms = permatickers.subarray(o.at, o.at + o.rows);
    if (isDeltaColumn(bytes)) chained.push({ block, metric, bytes, perms, at: o.at });
    else new ColumnChain().decode(bytes, perms, day, target, o.at);
  }
  if (chained.length > 0) await readChained(conn, day, chained, valuesOut);
  return { date, day, permatickers, values: valuesOut };
}

/**
 * Columns of `day` stored as changes (snapshot-deltas.ts): decoded from the block's rows since its
 * last full one, which the build keeps within the same chain period (CHAIN_YEARS).
 */
async function readChained(
  conn: DuckDBConnection,
  day: number,
  chained: { block: number; metric: string; bytes: Uint8Array; perms: Int32Array; at: number }[],
  valuesOut: Record<string, Float64Array>,
): Promise<void> {
  const periodStart = chainPeriodStart(day);
  // Metric ids are catalogue ids and blocks integers: safe to inline.
  const list = [...new Set(chained.map((c) => `'${c.metric}'`))].join(',');
  const blockList = [...new Set(chained.map((c) => c.block))].join(',');
  const window = [periodStart, fromEpochDay(day)];
  const b = await cols(
    conn,
    `SELECT ${dayExpr('date')}, block, permatickers FROM metric_snapshot_blocks
      WHERE date >= $1::DATE AND date < $2::DATE AND block IN (${blockList})`,
    window,
  );
  const perms = new Map<string, Int32Array>();
  for (let i = 0; i < b[0].length; i++) perms.set(`${Number(b[0][i])}|${Number(b[1][i])}`, new Int32Array(copyBytes(b[2][i])));
  const v = await cols(
    conn,
    `SELECT ${dayExpr('date')}, block, metric, data FROM metric_snapshot_values
      WHERE date >= $1::DATE AND date < $2::DATE AND metric IN (${list}) AND block IN (${blockList}) ORDER BY date`,
    window,
  );
  const rows = new Map<string, { day: number; bytes: Uint8Array }[]>();
  for (let i = 0; i < v[0].length; i++) {
    const key = `${Number(v[1][i])}|${String(v[2][i])}`;
    const row = { day: Number(v[0][i]), bytes: blobBytes(v[3][i]) };
    const list = rows.get(key);
    if (list) list.push(row);
    else rows.set(key, [row]);
  }
  for (const c of chained) {
    const before = rows.get(`${c.block}|${c.metric}`) ?? [];
    let start = before.length - 1;
    while (start >= 0 && isDeltaColumn(before[start].bytes)) start--;
    if (start < 0)
      throw new Error(
        `The stored snapshot of ${fromEpochDay(day)} (${c.metric}, block ${c.block}) has no full row before it since ${periodStart}.`,
      );
    const chain = new ColumnChain();
    for (const row of before.slice(start)) {
      const rowPerms = perms.get(`${row.day}|${c.block}`);
      if (!rowPerms) throw new Error(`The stored snapshot of ${fromEpochDay(row.day)} has values but no rows for block ${c.block}.`);
      chain.decode(row.bytes, rowPerms, row.day, null, 0);
    }
    chain.decode(c.bytes, c.perms, day, valuesOut[c.metric], c.at);
  }
}

/**
 * The stored snapshot for a date (the nearest stored one on or before it; the latest for
 * 'latest') read on a connection the caller holds, e.g. the derived-data build on a store being
 * written; null when none is stored.
 */
export async function storedSnapshotOn(
  conn: DuckDBConnection,
  asOf: IsoDate | 'latest',
  metrics: readonly string[],
  frequency: SnapshotFrequency = 'any',
): Promise<MetricSnapshot | null> {
  const ids = checkMetrics(metrics);
  const stored = (await storedDates(conn)).filter((d) => frequency === 'any' || (frequency === 'month_end' ? d.monthEnd : d.weekly));
  const day = asOf === 'latest' ? Number.POSITIVE_INFINITY : toEpochDay(asOf);
  const hit = asOf === 'latest' ? stored.find((d) => d.latest) : stored.filter((d) => d.day <= day).at(-1);
  return hit ? readStored(conn, hit.day, ids) : null;
}

/** Stored snapshot days of a frequency (ascending epoch days) on a connection the caller holds. */
export async function storedDaysOn(conn: DuckDBConnection, frequency: SnapshotFrequency = 'any'): Promise<number[]> {
  return (await storedDates(conn))
    .filter((d) => frequency === 'any' || (frequency === 'month_end' ? d.monthEnd : d.weekly))
    .map((d) => d.day);
}

const marketCache = new Map<string, Promise<MarketReturns | null>>();
function cachedMarket(conn: DuckDBConnection, file: string): Promise<MarketReturns | null> {
  const key = signature(file);
  let m = marketCache.get(key);
  if (!m) {
    marketCache.clear();
    m = loadMarketReturns(conn);
    marketCache.set(key, m);
    m.catch(() => marketCache.delete(key));
  }
  return m;
}

/** Computes one date from the store (every security listed on it), in blocks. */
async function computeOnDemand(conn: DuckDBConnection, file: string, day: number, metrics: readonly string[]): Promise<MetricSnapshot> {
  const market = await cachedMarket(conn, file);
  const calendar = await cachedTradingCalendar(conn, signature(file));
  const listed = (await listSecurities(conn)).filter(
    (s) => s.firstDay !== null && s.firstDay <= day && !(s.isDelisted && (s.lastDay ?? -Infinity) < day),
  );
  const parts: MetricSnapshot[] = [];
  for (let i = 0; i < listed.length; i += 1000) {
    const slice: SecurityRow[] = listed.slice(i, i + 1000);
    const inputs = await loadBlock(conn, slice, {
      toDay: day,
      priceFromDay: day - ON_DEMAND_PRICE_DAYS,
      factFromDay: day - ON_DEMAND_FACT_DAYS,
      accessions: false,
    });
    parts.push(new UniverseEvaluator({ securities: inputs, market, calendar }).evaluate(day));
  }
  const total = parts.reduce((n, p) => n + p.permatickers.length, 0);
  const permatickers = new Int32Array(total);
  const values: Record<string, Float64Array> = {};
  for (const id of metrics) values[id] = new Float64Array(total);
  let at = 0;
  for (const p of parts) {
    permatickers.set(p.permatickers, at);
    for (const id of metrics) values[id].set(p.values[id], at);
    at += p.permatickers.length;
  }
  // The values a stored snapshot of the day would read back (snapshot-values.ts).
  for (const id of metrics) quantizeInPlace(values[id]);
  return { date: fromEpochDay(day), day, permatickers, values };
}

// Stored snapshots read in full are kept too: the screener reads the same one on every request,
// and the same object back lets callers cache what they derive from it by identity.
const storedCache = new Map<string, Promise<MetricSnapshot>>();
const STORED_CACHE_SIZE = 4;

function readStoredCached(conn: DuckDBConnection, file: string, day: number, metrics: readonly string[]): Promise<MetricSnapshot> {
  if (metrics !== METRIC_IDS) return readStored(conn, day, metrics);
  const key = `${signature(file)}|${day}`;
  let hit = storedCache.get(key);
  if (hit) {
    storedCache.delete(key);
    storedCache.set(key, hit);
    return hit;
  }
  hit = readStored(conn, day, metrics);
  storedCache.set(key, hit);
  hit.catch(() => storedCache.delete(key));
  while (storedCache.size > STORED_CACHE_SIZE) storedCache.delete(storedCache.keys().next().value as string);
  return hit;
}

const onDemandCache = new Map<string, Promise<MetricSnapshot>>();
const ON_DEMAND_CACHE_SIZE = 8;

export type LoadSnapshotOptions = ReadOptions & {
  /**
   * false: the nearest stored snapshot on or before the date (fast, for pages that show an
   * "as of" date). true (default): exactly the date, computed on demand when not stored.
   */
  exact?: boolean;
};

/**
 * The columnar snapshot as of a date (or the latest one). Full snapshots are cached and shared:
 * the same date gives the same object until the store changes, so treat it as read-only.
 */
export async function loadSnapshot(asOf: IsoDate | 'latest', opts: LoadSnapshotOptions = {}): Promise<MetricSnapshot> {
  const metrics = checkMetrics(opts.metrics);
  return withReader(opts.marketDb, async (conn, file) => {
    const stored = await servingDates(conn, metrics);
    let day: number;
    if (asOf === 'latest') {
      const latest = stored.find((d) => d.latest);
      if (latest) return readStoredCached(conn, file, latest.day, metrics);
      const last = (await cols(conn, `SELECT ${dayExpr('max(date)')} FROM prices`))[0][0];
      if (last === null) throw notFound('No market data.');
      day = Number(last);
    } else {
      if (!isIsoDate(asOf)) throw unprocessable(`Not a date (YYYY-MM-DD): ${asOf}`);
      day = toEpochDay(asOf);
      const hit = stored.find((d) => d.day === day);
      if (hit) return readStoredCached(conn, file, day, metrics);
      if (opts.exact === false) {
        const before = stored.filter((d) => d.day <= day);
        if (before.length > 0) return readStoredCached(conn, file, before[before.length - 1].day, metrics);
      }
    }
    const key = `${signature(file)}|${day}`;
    let pending = onDemandCache.get(key);
    if (!pending) {
      pending = computeOnDemand(conn, file, day, METRIC_IDS);
      onDemandCache.set(key, pending);
      pending.catch(() => onDemandCache.delete(key));
      while (onDemandCache.size > ON_DEMAND_CACHE_SIZE) onDemandCache.delete(onDemandCache.keys().next().value as string);
    }
    const full = await pending;
    if (metrics === METRIC_IDS) return full;
    const values: Record<string, Float64Array> = {};
    for (const id of metrics) values[id] = full.values[id];
    return { ...full, values };
  });
}

/** True when the store's latest snapshot is stored and holds what this code computes for `metrics`. */
export async function latestStoredServes(metrics: readonly string[], opts: { marketDb?: string } = {}): Promise<boolean> {
  return withReader(opts.marketDb, async (conn) => (await servingDates(conn, checkMetrics(metrics))).some((d) => d.latest));
}

/** Stored snapshot dates (ascending) of a frequency. */
export async function listSnapshotDates(frequency: SnapshotFrequency = 'any', opts: { marketDb?: string } = {}): Promise<IsoDate[]> {
  return withReader(opts.marketDb, async (conn) =>
    (await storedDates(conn))
      .filter((d) => frequency === 'any' || (frequency === 'month_end' ? d.monthEnd : d.weekly))
      .map((d) => fromEpochDay(d.day)),
  );
}

/**
 * Stored snapshots between two dates in ascending order, one at a time (a backtest holds only
 * the current one). Weekly dates exist when the snapshots were built with `weekly: true`.
 */
export async function* iterateSnapshots(
  opts: ReadOptions & {
    from?: IsoDate;
    to?: IsoDate;
    frequency?: SnapshotFrequency;
  },
): AsyncGenerator<MetricSnapshot> {
  const metrics = checkMetrics(opts.metrics);
  const file = opts.marketDb ?? config().marketDb;
  const reader = await openReader(file);
  const conn = await reader.connect();
  try {
    const from = opts.from ? toEpochDay(opts.from) : Number.NEGATIVE_INFINITY;
    const to = opts.to ? toEpochDay(opts.to) : Number.POSITIVE_INFINITY;
    const f = opts.frequency ?? 'month_end';
    // A metric added since the build is not stored: those dates are computed rather than read
    // as n/a. (Values of another engine version are still read here: recomputing every stored
    // date would stall the page; the data status asks for a rebuild.)
    const stored = new Set((await storedMeta(conn)).metricIds ?? []);
    const complete = metrics.every((m) => stored.has(m));
    for (const d of await storedDates(conn)) {
      if (d.day < from || d.day > to) continue;
      if (f === 'month_end' && !d.monthEnd) continue;
      if (f === 'weekly' && !d.weekly) continue;
      if (complete) yield await readStored(conn, d.day, metrics);
      else yield await computeOnDemand(conn, file, d.day, metrics);
    }
  } finally {
    conn.closeSync();
  }
}

// ---------------------------------------------------------------------------------------------
// Series

export type SeriesMode = FactMode;

export type MetricSeries = {
  permaticker: number;
  metric: MetricDefinition;
  mode: SeriesMode;
  asOf: IsoDate | null;
  points: SeriesPoint[];
};

export async function metricSeries(
  permaticker: number,
  metricId: string,
  opts: {
    from?: IsoDate;
    to?: IsoDate;
    asOf?: IsoDate;
    mode?: SeriesMode;
    marketDb?: string;
  } = {},
): Promise<MetricSeries> {
  const metric = getMetric(metricId);
  if (!metric) throw notFound(`Unknown metric: ${metricId}`);
  for (const [name, value] of [
    ['from', opts.from],
    ['to', opts.to],
    ['as_of', opts.asOf],
  ] as const) {
    if (value !== undefined && !isIsoDate(value)) throw unprocessable(`\`${name}\` is not a date (YYYY-MM-DD): ${value}`);
  }
  if (opts.from && opts.to && opts.from > opts.to) throw unprocessable('`from` must not be after `to`.');
  // Kept per store version (answer-cache.server.ts): a repeat is a lookup. Shared: do not mutate.
  return cachedAnswer(
    opts.marketDb ?? config().marketDb,
    ['metricSeries', permaticker, metricId, opts.from, opts.to, opts.asOf, opts.mode ?? 'point_in_time'],
    () => computeMetricSeries(permaticker, metric, opts),
  );
}

async function computeMetricSeries(
  permaticker: number,
  metric: MetricDefinition,
  opts: { from?: IsoDate; to?: IsoDate; asOf?: IsoDate; mode?: SeriesMode; marketDb?: string },
): Promise<MetricSeries> {
  const metricId = metric.id;
  return withReader(opts.marketDb, async (conn, file) => {
    const security = await findSecurity(conn, permaticker);
    if (!security) throw notFound(`Unknown security: ${permaticker}`);
    const mode = opts.mode ?? 'point_in_time';
    const asOfDay = opts.asOf ? toEpochDay(opts.asOf) : Number.POSITIVE_INFINITY;
    const [input] = await loadBlock(conn, [security], opts.asOf ? { toDay: asOfDay } : {});
    const market = await cachedMarket(conn, file);
    const calendar = await cachedTradingCalendar(conn, signature(file));
    const points = metricSeriesOf(input, market, metricId, {
      calendar,
      fromDay: opts.from ? toEpochDay(opts.from) : Number.NEGATIVE_INFINITY,
      toDay: opts.to ? toEpochDay(opts.to) : Number.POSITIVE_INFINITY,
      asOfDay,
      mode,
    });
    return { permaticker, metric, mode, asOf: opts.asOf ?? null, points };
  });
}
