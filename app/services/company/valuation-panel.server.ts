import type { DuckDBConnection } from '@duckdb/node-api';
import type { IsoDate } from '../dates';
import { appendTypedColumns } from '../market/store/bulk-append.server';
import { queryRows, type MarketReader } from '../market/store/open-store.server';
import { readStoredColumnsOn, storedDayIndex, storedSnapshotAt } from '../metrics/snapshot-columns.server';
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
  const days = await storedDaysOn(conn, 'month_end');
  // Every month-end of the six metrics in one read per metric (a date read alone may have to
  // read the dates before it: snapshot-deltas.ts).
  const columns = await readStoredColumnsOn(conn, VALUATION_METRICS);
  const history = { perm: [] as number[], day: [] as number[], values: VALUATION_METRICS.map(() => [] as number[]) };
  const medians = { sector: [] as (string | null)[], day: [] as number[], values: VALUATION_METRICS.map(() => [] as number[]) };
  for (const day of days) {
    const k = storedDayIndex(columns.index, day);
    // A date without a listed company has no rows.
    if (k < 0) continue;
    const snap = storedSnapshotAt(columns, k);
    const bySector = new Map<string | null, number[]>();
    for (let i = 0; i < snap.permatickers.length; i++) {
      const p = snap.permatickers[i];
      history.perm.push(p);
      history.day.push(day);
      VALUATION_METRICS.forEach((m, k) => history.values[k].push(snap.values[m][i]));
      const sector = sectors.get(p) ?? null;
      const rows = bySector.get(sector);
      if (rows) rows.push(i);
      else bySector.set(sector, [i]);
    }
    for (const [sector, rows] of bySector) {
      medians.sector.push(sector);
      medians.day.push(day);
      VALUATION_METRICS.forEach((m, k) =>
        medians.values[k].push(
          sectorMedian(
            m,
            rows.map((i) => snap.values[m][i]),
          ) ?? Number.NaN,
        ),
      );
    }
  }
  await conn.run(`CREATE OR REPLACE TABLE ${VALUATION_HISTORY_TABLE} (permaticker INTEGER NOT NULL, date DATE NOT NULL, ${columnsSql})`);
  await conn.run(`CREATE OR REPLACE TABLE ${SECTOR_MEDIANS_TABLE} (sector VARCHAR, date DATE NOT NULL, ${columnsSql})`);
  // Readers look one company up at a time: its rows are kept together, in date order. Sorted
  // here rather than by rewriting the table in DuckDB, which left the first copy's blocks free
  // in the file (22 MB of the 6,000 × 25-year demo).
  const order = Uint32Array.from(history.perm, (_, i) => i).sort(
    (a, b) => history.perm[a] - history.perm[b] || history.day[a] - history.day[b],
  );
  await appendTypedColumns(conn, VALUATION_HISTORY_TABLE, [
    { kind: 'integer', values: Int32Array.from(order, (i) => history.perm[i]) },
    { kind: 'date', values: Int32Array.from(order, (i) => history.day[i]) },
    ...history.values.map((v) => ({ kind: 'double' as const, values: Float64Array.from(order, (i) => v[i]) })),
  ]);
  await appendTypedColumns(conn, SECTOR_MEDIANS_TABLE, [
    { kind: 'varchar', values: medians.sector },
    { kind: 'date', values: Int32Array.from(medians.day) },
    ...medians.values.map((v) => ({ kind: 'double' as const, values: Float64Array.from(v) })),
  ]);
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
