import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { DuckDBBlobValue } from '@duckdb/node-api';
import { CONCEPT_IDS } from '../market/store/schema';
import type { Security } from '../market/store/security';
import { copyVector } from '../market/store/vector-items.server';
import { periodKindOf } from './engine/facts';
import type { SplitEvent } from './engine/share-basis';
import type { FactColumns, MarketReturns, SecurityInput } from './engine/types';
import { tradingCalendarOf } from './trading-calendar.server';

// Reads the market store into the engine's columnar inputs, a block of securities at a time so
// a 6,000 × 25-year universe never has to sit in memory at once. Dates come out of DuckDB as
// epoch days (integers), so nothing is parsed per row on the Node side.

const DAY = `DATE '1970-01-01'`;
const days = (col: string) => `datediff('day', ${DAY}, ${col})::INTEGER`;

/** A security as the loader lists it: listing span as epoch days, for slicing price columns. */
export type SecurityRow = Pick<Security, 'permaticker' | 'isDelisted'> & { firstDay: number | null; lastDay: number | null };

async function columns(conn: DuckDBConnection, sql: string, params?: DuckDBValue[]): Promise<DuckDBValue[][]> {
  const reader = await conn.runAndReadAll(sql, params);
  const c = reader.getColumns();
  // An empty result has no chunks, hence no columns: give each column an empty list.
  return c.length === reader.columnCount ? c : Array.from({ length: reader.columnCount }, () => []);
}

const num = (v: DuckDBValue): number => (v === null ? Number.NaN : Number(v));

export async function tableExists(conn: DuckDBConnection, table: string): Promise<boolean> {
  const c = await columns(conn, `SELECT count(*)::INTEGER FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = $1`, [table]);
  return Number(c[0][0]) > 0;
}

/** Every security with its price range, ascending by permaticker. */
export async function listSecurities(conn: DuckDBConnection): Promise<SecurityRow[]> {
  const c = await columns(
    conn,
    `SELECT s.permaticker, s.is_delisted, p.first_day, p.last_day
       FROM securities s
       LEFT JOIN (SELECT permaticker, ${days('min(date)')} AS first_day, ${days('max(date)')} AS last_day FROM prices GROUP BY permaticker) p USING (permaticker)
      ORDER BY s.permaticker`,
  );
  return c[0].map((p, i) => ({
    permaticker: Number(p),
    isDelisted: Boolean(c[1][i]),
    firstDay: c[2][i] === null ? null : Number(c[2][i]),
    lastDay: c[3][i] === null ? null : Number(c[3][i]),
  }));
}

/** One security with its price range (a keyed lookup, no scan of the whole prices table). */
export async function findSecurity(conn: DuckDBConnection, permaticker: number): Promise<SecurityRow | null> {
  const c = await columns(
    conn,
    `SELECT s.permaticker, s.is_delisted,
            (SELECT ${days('min(date)')} FROM prices p WHERE p.permaticker = s.permaticker),
            (SELECT ${days('max(date)')} FROM prices p WHERE p.permaticker = s.permaticker)
       FROM securities s WHERE s.permaticker = $1`,
    [permaticker],
  );
  if (c[0].length === 0) return null;
  return {
    permaticker: Number(c[0][0]),
    isDelisted: Boolean(c[1][0]),
    firstDay: c[2][0] === null ? null : Number(c[2][0]),
    lastDay: c[3][0] === null ? null : Number(c[3][0]),
  };
}

export type BlockWindow = {
  /** Load nothing after this day (prices ≤ it, facts filed < it, dividends ≤ it). */
  toDay?: number;
  /** Load prices from this day on (earlier bars are only counted). */
  priceFromDay?: number;
  /** Load facts whose period ended on or after this day. */
  factFromDay?: number;
  /**
   * Read each fact's accession (true by default). Only provenance needs them (a metric's history,
   * the company pages): without, a snapshot build's block skips its accession list and each fact's
   * text, which its evaluator thread would otherwise receive as one string per fact (10.8 million
   * on the 6,000 × 25-year demo) and never read.
   */
  accessions?: boolean;
};

/** Engine inputs of a contiguous slice of securities (ascending permatickers). */
export async function loadBlock(conn: DuckDBConnection, block: readonly SecurityRow[], window: BlockWindow = {}): Promise<SecurityInput[]> {
  if (block.length === 0) return [];
  const lo = block[0].permaticker;
  const hi = block[block.length - 1].permaticker;
  const to = window.toDay;
  const from = window.priceFromDay;
  const priceWhere = `permaticker BETWEEN ${lo} AND ${hi}${to !== undefined ? ` AND ${days('date')} <= ${to}` : ''}`;

  const priceSql = `SELECT permaticker, ${days('date')}, close, close_unadj, volume, tri FROM prices
      WHERE ${priceWhere}${from !== undefined ? ` AND ${days('date')} >= ${from}` : ''}`;
  // Prices come back in the order they were written, which a writer keeps per security and date
  // (writer.server.ts): checked, and sorted by DuckDB only where they are not (rows merged in
  // later). The sort was about half of reading the prices of a block of the 6,000 × 25-year demo.
  let p = await numericColumns(conn, priceSql);
  if (!ascendingPairs(p.cols[0], p.cols[1], p.n)) p = await numericColumns(conn, `${priceSql} ORDER BY permaticker, date`);
  const before = new Map<number, number>();
  if (from !== undefined) {
    const b = await numericColumns(
      conn,
      `SELECT permaticker, count(*)::INTEGER FROM prices WHERE ${priceWhere} AND ${days('date')} < ${from} GROUP BY permaticker`,
    );
    for (let i = 0; i < b.n; i++) before.set(b.cols[0][i], b.cols[1][i]);
  }
  const d = await numericColumns(
    conn,
    `SELECT permaticker, ${days('date')}, value FROM corporate_actions
      WHERE action = 'dividend' AND value IS NOT NULL AND permaticker BETWEEN ${lo} AND ${hi}${to !== undefined ? ` AND ${days('date')} <= ${to}` : ''}
      ORDER BY permaticker, date`,
  );
  const sp = await numericColumns(
    conn,
    `SELECT permaticker, ${days('date')}, value FROM corporate_actions
      WHERE action = 'split' AND value > 0 AND permaticker BETWEEN ${lo} AND ${hi}${to !== undefined ? ` AND ${days('date')} <= ${to}` : ''}
      ORDER BY permaticker, date`,
  );
  // Strings never cross into JS per row: concepts and fiscal periods become small integers in
  // SQL, accessions an index into a dictionary read once per block.
  const factWhere = `permaticker BETWEEN ${lo} AND ${hi}${to !== undefined ? ` AND ${days('filed')} < ${to}` : ''}${window.factFromDay !== undefined ? ` AND ${days('period_end')} >= ${window.factFromDay}` : ''}`;
  const accCte = `WITH acc AS (SELECT accession, (row_number() OVER (ORDER BY accession))::INTEGER AS id FROM (SELECT DISTINCT accession FROM facts WHERE ${factWhere} AND accession IS NOT NULL))`;
  const dictionary =
    window.accessions === false ? null : (await columns(conn, `${accCte} SELECT accession FROM acc ORDER BY id`))[0].map(String);
  // Sorted as by (permaticker, filed, accession NULLS FIRST, concept), on integers: the accession's
  // id is its rank and the concept's position in the sorted list its rank, and sorting on the
  // texts themselves took a 250-company block's facts 20 % longer.
  const f = await numericColumns(
    conn,
    `${accCte}
     SELECT f.permaticker, (list_position(${CONCEPT_LIST}, f.concept) - 1)::INTEGER, f.value, ${days('f.period_start')}, ${days('f.period_end')},
            (CASE f.fiscal_period WHEN 'Q1' THEN 1 WHEN 'Q2' THEN 2 WHEN 'Q3' THEN 3 WHEN 'Q4' THEN 4 WHEN 'FY' THEN 5 WHEN '9M' THEN 6 ELSE 0 END)::INTEGER,
            ${days('f.filed')} AS filed_day, acc.id
       FROM facts f LEFT JOIN acc USING (accession)
      WHERE ${factWhere}
      ORDER BY f.permaticker, filed_day, acc.id NULLS FIRST, list_position(${CONCEPT_RANKS}, f.concept)`,
  );

  // Each security's columns are views of the block's: one copy of the dates as integers, and a
  // block handed to an evaluator thread moves a few buffers instead of thirteen per security.
  const priceDays = Int32Array.from(p.cols[1]);
  const exDates = Int32Array.from(d.cols[1]);
  const pr = ranges(p.cols[0], p.n);
  const dr = ranges(d.cols[0], d.n);
  const fr = ranges(f.cols[0], f.n);
  const sr = ranges(sp.cols[0], sp.n);

  return block.map((s) => {
    const [a, b] = pr.get(s.permaticker) ?? [0, 0];
    const [da, db] = dr.get(s.permaticker) ?? [0, 0];
    const [fa, fb] = fr.get(s.permaticker) ?? [0, 0];
    const [sa, sb] = sr.get(s.permaticker) ?? [0, 0];
    const splits: SplitEvent[] = [];
    for (let k = sa; k < sb; k++) splits.push({ day: sp.cols[1][k], ratio: sp.cols[2][k] });
    return {
      permaticker: s.permaticker,
      dates: priceDays.subarray(a, b),
      close: p.cols[2].subarray(a, b),
      closeUnadj: p.cols[3].subarray(a, b),
      volume: p.cols[4].subarray(a, b),
      tri: p.cols[5].subarray(a, b),
      dividends: {
        exDate: exDates.subarray(da, db),
        amount: d.cols[2].subarray(da, db),
      },
      facts: factColumnsFromSorted(f.cols, fa, fb, dictionary),
      splits,
      delisted: s.isDelisted,
      barsBefore: before.get(s.permaticker) ?? 0,
    };
  });
}

const CONCEPT_LIST = `[${CONCEPT_IDS.map((c) => `'${c}'`).join(',')}]`;
/** The concepts in text order: a concept's position is its rank (unknown ones, NULL, are dropped as read). */
const CONCEPT_RANKS = `[${[...CONCEPT_IDS]
  .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  .map((c) => `'${c}'`)
  .join(',')}]`;

/** Whether rows are in ascending (a, b) order. */
function ascendingPairs(a: Float64Array, b: Float64Array, n: number): boolean {
  for (let i = 1; i < n; i++) if (a[i] < a[i - 1] || (a[i] === a[i - 1] && b[i] <= b[i - 1])) return false;
  return true;
}

/** Row ranges [start, end) of each permaticker in a column sorted by permaticker. */
function ranges(col: Float64Array, n: number): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i === n || col[i] !== col[start]) {
      if (n > 0) out.set(col[start], [start, i]);
      start = i;
    }
  }
  return out;
}

const FISCAL = [null, 'Q1', 'Q2', 'Q3', 'Q4', 'FY', '9M'] as const;

/** Facts already in availability order (SQL sorted them by filed), straight into columns. */
function factColumnsFromSorted(c: Float64Array[], from: number, to: number, dictionary: string[] | null): FactColumns {
  const keep: number[] = [];
  const kinds: number[] = [];
  for (let i = from; i < to; i++) {
    const concept = c[1][i];
    if (!(concept >= 0) || !Number.isFinite(c[2][i])) continue;
    const start = Number.isNaN(c[3][i]) ? null : c[3][i];
    const kind = periodKindOf(concept, FISCAL[c[5][i]], start, c[4][i]);
    if (kind < 0) continue;
    keep.push(i);
    kinds.push(kind);
  }
  const n = keep.length;
  const accession = dictionary ? new Array<string | null>(n) : null;
  const out: FactColumns = {
    concept: new Int8Array(n),
    value: new Float64Array(n),
    periodEnd: new Int32Array(n),
    periodKind: Int8Array.from(kinds),
    filed: new Int32Array(n),
    available: new Int32Array(n),
    accession,
  };
  for (let k = 0; k < n; k++) {
    const i = keep[k];
    out.concept[k] = c[1][i];
    out.value[k] = c[2][i];
    out.periodEnd[k] = c[4][i];
    out.filed[k] = c[6][i];
    out.available[k] = c[6][i];
    if (accession && dictionary) accession[k] = Number.isNaN(c[7][i]) ? null : dictionary[c[7][i] - 1];
  }
  return out;
}

/**
 * Numeric result columns as Float64Arrays (NULL → NaN), read from DuckDB's vectors directly:
 * the generic value conversion costs ~150 ns a value, too slow for tens of millions of prices.
 */
export async function numericColumns(
  conn: DuckDBConnection,
  sql: string,
  params?: DuckDBValue[],
): Promise<{ n: number; cols: Float64Array[] }> {
  const result = await conn.run(sql, params);
  // The result is materialized, so its length is known: each column is made once, at its size,
  // and the chunks copied into it (a block's prices and facts as chunk arrays joined after were a
  // fifth of a snapshot build's reading: the memory of every value allocated and written twice).
  const n = result.rowCount;
  const cols = Array.from({ length: result.columnCount }, () => new Float64Array(n));
  let at = 0;
  // Its chunks are read where they are, synchronously: fetched one by one, each was a round trip
  // through the thread pool (~600 for a 250-company block's prices and facts).
  for (let c = 0, count = result.chunkCount; c < count; c++) {
    const chunk = result.getChunk(c);
    const rows = chunk.rowCount;
    if (at + rows > n) break;
    for (let j = 0; j < cols.length; j++) copyVector(chunk.getColumnVector(j), rows, cols[j], at);
    at += rows;
  }
  if (at !== n) throw new Error(`numericColumns: the result has ${n} rows, its chunks ${at} or more`);
  return { n, cols };
}

/** Every security's daily total return (tri, or close where it has none), where it has one. */
const SECURITY_RETURNS_SQL = `
  SELECT * FROM (
    SELECT date, permaticker,
           coalesce(tri, close) / lag(coalesce(tri, close)) OVER (PARTITION BY permaticker ORDER BY date) - 1 AS ret
      FROM prices
  ) WHERE ret IS NOT NULL AND isfinite(ret)`;

/** SQL for the equal-weighted market's daily return (tri, or close where a security has no tri). */
export const MARKET_RETURNS_SQL = `
  WITH r AS (${SECURITY_RETURNS_SQL})
  SELECT date, list_avg(list(ret ORDER BY permaticker)) AS ret FROM r GROUP BY date`;

/**
 * MARKET_RETURNS_SQL's answer, bit for bit, for building: each security's returns computed here
 * from its values in date order (as the SQL's window does), each day's summed in permaticker
 * order and divided by their count (as DuckDB's list_avg does), over one stream sorted by
 * permaticker and date. The list aggregate holds every return in memory at once and cannot spill
 * to disk (~1 GB on 6,000 companies × 25 years); the sort this reads from can, so it runs under
 * the build's memory bound. The window and a second sort in DuckDB took 3.4 s of that universe's
 * build; this takes 1.9 s. Ascending days.
 *
 * Read a range of permatickers at a time (`rowsPerRead` rows or so each, whole securities), in
 * order: the same rows in the same order, but DuckDB sorts each range in memory instead of the
 * whole table under the build's memory bound (spilling to disk): on the 6,000 × 25-year demo,
 * alone, 5.3 → 2.0–2.7 s (7.2 → 2.3–3.4 s of CPU).
 */
export async function computeMarketReturns(
  conn: DuckDBConnection,
  rowsPerRead = 1_000_000,
): Promise<{ days: Int32Array; ret: Float64Array }> {
  const [[lo, hi]] = (await conn.runAndReadAll(`SELECT ${days('min(date)')}, ${days('max(date)')} FROM prices`)).getRows();
  if (lo === null || hi === null) return { days: new Int32Array(0), ret: new Float64Array(0) };
  const day0 = Number(lo);
  const sums = new Float64Array(Number(hi) - day0 + 1);
  const counts = new Float64Array(sums.length);
  const perm = new Float64Array(2048);
  const day = new Float64Array(2048);
  const value = new Float64Array(2048);
  let lastPerm = Number.NaN;
  let lastValue = Number.NaN;
  for (const [from, to] of await permatickerRanges(conn, rowsPerRead)) {
    // The value of SECURITY_RETURNS_SQL's returns: tri, or close where there is none.
    const result = await conn.stream(
      `SELECT permaticker, ${days('date')}, coalesce(tri, close) FROM prices WHERE permaticker BETWEEN ${from} AND ${to} ORDER BY permaticker, date`,
    );
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const rows = chunk.rowCount;
      if (rows > day.length) throw new Error(`computeMarketReturns: a chunk of ${rows} rows`);
      copyVector(chunk.getColumnVector(0), rows, perm, 0);
      copyVector(chunk.getColumnVector(1), rows, day, 0);
      copyVector(chunk.getColumnVector(2), rows, value, 0);
      for (let i = 0; i < rows; i++) {
        // A security's first day has no return (lag is NULL), nor has a day after a NULL value.
        if (perm[i] === lastPerm) {
          const r = value[i] / lastValue - 1;
          if (Number.isFinite(r)) {
            const k = day[i] - day0;
            sums[k] += r;
            counts[k] += 1;
          }
        }
        lastPerm = perm[i];
        lastValue = value[i];
      }
    }
  }
  let n = 0;
  for (let k = 0; k < counts.length; k++) if (counts[k] > 0) n++;
  const out = { days: new Int32Array(n), ret: new Float64Array(n) };
  for (let k = 0, j = 0; k < counts.length; k++) {
    if (counts[k] === 0) continue;
    out.days[j] = day0 + k;
    out.ret[j++] = sums[k] / counts[k];
  }
  return out;
}

/** Ascending, disjoint permaticker ranges [from, to] of about `rows` price rows each, covering every permaticker with prices. */
async function permatickerRanges(conn: DuckDBConnection, rows: number): Promise<[number, number][]> {
  const c = await numericColumns(conn, `SELECT permaticker, count(*)::INTEGER FROM prices GROUP BY permaticker ORDER BY permaticker`);
  const out: [number, number][] = [];
  let start = 0;
  let inRange = 0;
  for (let i = 0; i < c.n; i++) {
    inRange += c.cols[1][i];
    if (inRange >= rows || i === c.n - 1) {
      out.push([c.cols[0][start], c.cols[0][i]]);
      start = i + 1;
      inRange = 0;
    }
  }
  return out;
}

/** The market returns, from the stored table when the snapshots were built, else computed. */
export async function loadMarketReturns(conn: DuckDBConnection): Promise<MarketReturns | null> {
  const source =
    (await tableExists(conn, 'metric_market_returns')) && (await columns(conn, 'SELECT count(*)::INTEGER FROM metric_market_returns'))[0][0]
      ? 'metric_market_returns'
      : `(${MARKET_RETURNS_SQL})`;
  const c = await columns(conn, `SELECT ${days('date')}, ret FROM ${source} ORDER BY date`);
  if (c[0].length === 0) return null;
  const day0 = Number(c[0][0]);
  const last = Number(c[0][c[0].length - 1]);
  const ret = new Float64Array(last - day0 + 1).fill(Number.NaN);
  for (let i = 0; i < c[0].length; i++) ret[Number(c[0][i]) - day0] = num(c[1][i]);
  return { day0, ret };
}

/**
 * The exchange's trading days (every day with a price in the store), ascending epoch days: the
 * stored calendar table when it is current, else from the prices (trading-calendar.server.ts).
 */
export function loadTradingCalendar(conn: DuckDBConnection): Promise<Int32Array> {
  return tradingCalendarOf(conn);
}

const calendarCache = new Map<string, Promise<Int32Array>>();

/** The same, kept per store version (`key` changes when the file does). */
export function cachedTradingCalendar(conn: DuckDBConnection, key: string): Promise<Int32Array> {
  let hit = calendarCache.get(key);
  if (!hit) {
    calendarCache.clear();
    hit = loadTradingCalendar(conn);
    calendarCache.set(key, hit);
    hit.catch(() => calendarCache.delete(key));
  }
  return hit;
}

export function blobBytes(v: DuckDBValue): Uint8Array {
  if (v instanceof DuckDBBlobValue) return v.bytes;
  throw new Error('Expected a BLOB value');
}
