import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { DuckDBBlobValue } from '@duckdb/node-api';
import { buildFactColumnsFromDays, type FactDayRow } from './engine/facts';
import type { MarketReturns, SecurityInput } from './engine/types';

// Reads the market store into the engine's columnar inputs, a block of securities at a time so
// a 6,000 × 25-year universe never has to sit in memory at once. Dates come out of DuckDB as
// epoch days (integers), so nothing is parsed per row on the Node side.

const DAY = `DATE '1970-01-01'`;
const days = (col: string) => `datediff('day', ${DAY}, ${col})::INTEGER`;

export type SecurityRow = { permaticker: number; delisted: boolean; firstDay: number | null; lastDay: number | null };

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
    delisted: Boolean(c[1][i]),
    firstDay: c[2][i] === null ? null : Number(c[2][i]),
    lastDay: c[3][i] === null ? null : Number(c[3][i]),
  }));
}

export type BlockWindow = {
  /** Load nothing after this day (prices ≤ it, facts filed < it, dividends ≤ it). */
  toDay?: number;
  /** Load prices from this day on (earlier bars are only counted). */
  priceFromDay?: number;
  /** Load facts whose period ended on or after this day. */
  factFromDay?: number;
};

/** Engine inputs of a contiguous slice of securities (ascending permatickers). */
export async function loadBlock(conn: DuckDBConnection, block: readonly SecurityRow[], window: BlockWindow = {}): Promise<SecurityInput[]> {
  if (block.length === 0) return [];
  const lo = block[0].permaticker;
  const hi = block[block.length - 1].permaticker;
  const to = window.toDay;
  const from = window.priceFromDay;
  const priceWhere = `permaticker BETWEEN ${lo} AND ${hi}${to !== undefined ? ` AND ${days('date')} <= ${to}` : ''}`;

  const p = await columns(
    conn,
    `SELECT permaticker, ${days('date')}, close, close_unadj, volume, tri FROM prices
      WHERE ${priceWhere}${from !== undefined ? ` AND ${days('date')} >= ${from}` : ''}
      ORDER BY permaticker, date`,
  );
  const before = new Map<number, number>();
  if (from !== undefined) {
    const b = await columns(conn, `SELECT permaticker, count(*)::INTEGER FROM prices WHERE ${priceWhere} AND ${days('date')} < ${from} GROUP BY permaticker`);
    b[0].forEach((pt, i) => before.set(Number(pt), Number(b[1][i])));
  }
  const d = await columns(
    conn,
    `SELECT permaticker, ${days('date')}, value FROM corporate_actions
      WHERE action = 'dividend' AND value IS NOT NULL AND permaticker BETWEEN ${lo} AND ${hi}${to !== undefined ? ` AND ${days('date')} <= ${to}` : ''}
      ORDER BY permaticker, date`,
  );
  const f = await columns(
    conn,
    `SELECT permaticker, concept, value, ${days('period_start')}, ${days('period_end')}, fiscal_period, ${days('filed')}, accession FROM facts
      WHERE permaticker BETWEEN ${lo} AND ${hi}${to !== undefined ? ` AND ${days('filed')} < ${to}` : ''}${window.factFromDay !== undefined ? ` AND ${days('period_end')} >= ${window.factFromDay}` : ''}
      ORDER BY permaticker, filed, accession NULLS FIRST, concept`,
  );

  const ranges = (col: DuckDBValue[]) => {
    const out = new Map<number, [number, number]>();
    let start = 0;
    for (let i = 1; i <= col.length; i++) {
      if (i === col.length || col[i] !== col[start]) {
        out.set(Number(col[start]), [start, i]);
        start = i;
      }
    }
    return out;
  };
  const pr = ranges(p[0]);
  const dr = ranges(d[0]);
  const fr = ranges(f[0]);

  return block.map((s) => {
    const [a, b] = pr.get(s.permaticker) ?? [0, 0];
    const n = b - a;
    const dates = new Int32Array(n);
    const close = new Float64Array(n);
    const closeUnadj = new Float64Array(n);
    const volume = new Float64Array(n);
    const tri = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      dates[k] = Number(p[1][a + k]);
      close[k] = num(p[2][a + k]);
      closeUnadj[k] = num(p[3][a + k]);
      volume[k] = num(p[4][a + k]);
      tri[k] = num(p[5][a + k]);
    }
    const [da, db] = dr.get(s.permaticker) ?? [0, 0];
    const exDate = new Int32Array(db - da);
    const amount = new Float64Array(db - da);
    for (let k = da; k < db; k++) {
      exDate[k - da] = Number(d[1][k]);
      amount[k - da] = num(d[2][k]);
    }
    const [fa, fb] = fr.get(s.permaticker) ?? [0, 0];
    const rows: FactDayRow[] = [];
    for (let k = fa; k < fb; k++) {
      rows.push({
        concept: String(f[1][k]),
        value: num(f[2][k]),
        startDay: f[3][k] === null ? null : Number(f[3][k]),
        endDay: Number(f[4][k]),
        fiscalPeriod: f[5][k] === null ? null : String(f[5][k]),
        filedDay: Number(f[6][k]),
        accession: f[7][k] === null ? null : String(f[7][k]),
      });
    }
    return {
      permaticker: s.permaticker,
      dates,
      close,
      closeUnadj,
      volume,
      tri,
      dividends: { exDate, amount },
      facts: buildFactColumnsFromDays(rows),
      delisted: s.delisted,
      barsBefore: before.get(s.permaticker) ?? 0,
    };
  });
}

/** SQL for the equal-weighted market's daily return (tri, or close where a security has no tri). */
export const MARKET_RETURNS_SQL = `
  WITH r AS (
    SELECT date,
           coalesce(tri, close) / lag(coalesce(tri, close)) OVER (PARTITION BY permaticker ORDER BY date) - 1 AS ret
      FROM prices
  )
  SELECT date, avg(ret) AS ret FROM r WHERE ret IS NOT NULL AND isfinite(ret) GROUP BY date`;

/** The market returns, from the stored table when the snapshots were built, else computed. */
export async function loadMarketReturns(conn: DuckDBConnection): Promise<MarketReturns | null> {
  const source = (await tableExists(conn, 'metric_market_returns')) && (await columns(conn, 'SELECT count(*)::INTEGER FROM metric_market_returns'))[0][0] ? 'metric_market_returns' : `(${MARKET_RETURNS_SQL})`;
  const c = await columns(conn, `SELECT ${days('date')}, ret FROM ${source} ORDER BY date`);
  if (c[0].length === 0) return null;
  const day0 = Number(c[0][0]);
  const last = Number(c[0][c[0].length - 1]);
  const ret = new Float64Array(last - day0 + 1).fill(Number.NaN);
  for (let i = 0; i < c[0].length; i++) ret[Number(c[0][i]) - day0] = num(c[1][i]);
  return { day0, ret };
}

export function blobBytes(v: DuckDBValue): Uint8Array {
  if (v instanceof DuckDBBlobValue) return v.bytes;
  throw new Error('Expected a BLOB value');
}
