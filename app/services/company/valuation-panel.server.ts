import type { DuckDBConnection } from '@duckdb/node-api';
import type { IsoDate } from '../dates';
import { appendTypedColumns } from '../market/store/bulk-append.server';
import { queryRows, type MarketReader } from '../market/store/open-store.server';
import { readStoredColumnsOn, storedDayIndex } from '../metrics/snapshot-columns.server';
import { storedDaysOn } from '../metrics/snapshots.server';
import { sectorMedian, VALUATION_METRICS, type ValuationMetric } from './valuation-history';

// The valuation tab's data, computed when the derived data is built after an import instead of
// per request (reading every month-end snapshot for one company took seconds on a large store):
// - valuation_history: each company's six multiples on every stored month-end it was listed on,
//   as the snapshot holds them (NULL = n/a);
// - valuation_sector_medians: on each of those dates, each sector's median of its companies'
//   meaningful multiples (valuation-history.ts), the sector being the company's current one.
// valuation.server.ts reads them, and computes the same from the snapshots when they are absent.

export const VALUATION_HISTORY_TABLE = 'valuation_history';
export const SECTOR_MEDIANS_TABLE = 'valuation_sector_medians';

const columnsSql = VALUATION_METRICS.map((m) => `${m} DOUBLE`).join(', ');

export async function buildValuationPanel(conn: DuckDBConnection): Promise<void> {
  const sectors = new Map(
    (await queryRows<{ permaticker: number; sector: string | null }>(conn, `SELECT permaticker, sector FROM securities`)).map((r) => [
      r.permaticker,
      r.sector,
    ]),
  );
  // Every month-end of the six metrics in one read per metric (a date read alone may have to
  // read the dates before it: snapshot-deltas.ts). A date without a listed company has no rows.
  const columns = await readStoredColumnsOn(conn, VALUATION_METRICS);
  const { rowStart, perms } = columns.index;
  const stored = (await storedDaysOn(conn, 'month_end'))
    .map((day) => ({ day, k: storedDayIndex(columns.index, day) }))
    .filter((d) => d.k >= 0);
  // The history, copied a date at a time from the columns (dates ascending), then put in the
  // order readers look it up in: a company's rows together, in date order.
  const rows = stored.reduce((n, { k }) => n + rowStart[k + 1] - rowStart[k], 0);
  const perm = new Int32Array(rows);
  const day = new Int32Array(rows);
  const values = VALUATION_METRICS.map(() => new Float64Array(rows));
  const medians = { sector: [] as (string | null)[], day: [] as number[], values: VALUATION_METRICS.map(() => [] as number[]) };
  let at = 0;
  for (const { day: d, k } of stored) {
    const a = rowStart[k];
    const b = rowStart[k + 1];
    perm.set(perms.subarray(a, b), at);
    day.fill(d, at, at + b - a);
    VALUATION_METRICS.forEach((m, j) => values[j].set(columns.values[m].subarray(a, b), at));
    at += b - a;
    // Each sector's companies on that date, sectors in the order their first company comes.
    const bySector = new Map<string | null, number[]>();
    for (let i = a; i < b; i++) {
      const sector = sectors.get(perms[i]) ?? null;
      const members = bySector.get(sector);
      if (members) members.push(i);
      else bySector.set(sector, [i]);
    }
    for (const [sector, members] of bySector) {
      medians.sector.push(sector);
      medians.day.push(d);
      VALUATION_METRICS.forEach((m, j) => {
        const column = columns.values[m];
        medians.values[j].push(
          sectorMedian(
            m,
            members.map((i) => column[i]),
          ) ?? Number.NaN,
        );
      });
    }
  }
  await conn.run(`CREATE OR REPLACE TABLE ${VALUATION_HISTORY_TABLE} (permaticker INTEGER NOT NULL, date DATE NOT NULL, ${columnsSql})`);
  await conn.run(`CREATE OR REPLACE TABLE ${SECTOR_MEDIANS_TABLE} (sector VARCHAR, date DATE NOT NULL, ${columnsSql})`);
  // Sorted here rather than by rewriting the table in DuckDB, which left the first copy's blocks
  // free in the file (22 MB of the 6,000 × 25-year demo).
  const order = companyMajorOrder(perm);
  await appendTypedColumns(conn, VALUATION_HISTORY_TABLE, [
    { kind: 'integer', values: permuted(perm, order) },
    { kind: 'date', values: permuted(day, order) },
    ...values.map((v) => ({ kind: 'double' as const, values: permuted(v, order) })),
  ]);
  await appendTypedColumns(conn, SECTOR_MEDIANS_TABLE, [
    { kind: 'varchar', values: medians.sector },
    { kind: 'date', values: Int32Array.from(medians.day) },
    ...medians.values.map((v) => ({ kind: 'double' as const, values: Float64Array.from(v) })),
  ]);
}

/** `values` in the given order of positions (a loop: a mapping callback per value took most of the time). */
function permuted<T extends Int32Array | Float64Array>(values: T, order: Uint32Array): T {
  const out = new (values.constructor as new (length: number) => T)(order.length);
  for (let i = 0; i < order.length; i++) out[i] = values[order[i]];
  return out;
}

/**
 * The rows' positions ordered by company, each company's rows kept in the order they come (for
 * rows gathered date by date, by company then date): a counting sort, where a comparison sort of
 * the 6,000 × 25-year demo's 886,000 rows took half a second.
 */
export function companyMajorOrder(perm: Int32Array): Uint32Array {
  const counts = new Map<number, number>();
  for (const p of perm) counts.set(p, (counts.get(p) ?? 0) + 1);
  const next = new Map<number, number>();
  let start = 0;
  for (const p of Int32Array.from(counts.keys()).sort()) {
    next.set(p, start);
    start += counts.get(p) as number;
  }
  const order = new Uint32Array(perm.length);
  for (let i = 0; i < perm.length; i++) {
    const slot = next.get(perm[i]) as number;
    order[slot] = i;
    next.set(perm[i], slot + 1);
  }
  return order;
}

export type PanelRow = { date: IsoDate } & Record<ValuationMetric, number | null>;

/** A company's stored rows and its sector's medians between two dates (inclusive), ascending. */
export async function readValuationPanel(
  reader: MarketReader,
  permaticker: number,
  sector: string | null,
  from: IsoDate,
  to: IsoDate,
): Promise<{ company: PanelRow[]; medians: Map<IsoDate, PanelRow> }> {
  const cols = VALUATION_METRICS.join(', ');
  const [company, medians] = await Promise.all([
    reader.all<PanelRow>(
      `SELECT CAST(date AS VARCHAR) AS date, ${cols} FROM ${VALUATION_HISTORY_TABLE}
        WHERE permaticker = $1 AND date BETWEEN $2::DATE AND $3::DATE ORDER BY date`,
      [permaticker, from, to],
    ),
    reader.all<PanelRow>(
      `SELECT CAST(date AS VARCHAR) AS date, ${cols} FROM ${SECTOR_MEDIANS_TABLE}
        WHERE sector IS NOT DISTINCT FROM $1 AND date BETWEEN $2::DATE AND $3::DATE`,
      [sector, from, to],
    ),
  ]);
  return { company, medians: new Map(medians.map((r) => [r.date, r])) };
}
