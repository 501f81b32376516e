import type { DuckDBConnection } from '@duckdb/node-api';

// The exchange's trading days (every date with a price) stored as a small table when a store is
// built or published (buildDerivedTables calls `storeTradingCalendar` last), so the first
// metric history or snapshot after a start reads a few thousand dates instead of a DISTINCT over
// every price row. The table records the data snapshot id it was built for (meta), and is only
// read while that is still the store's id: any change of the data makes a new id, and until the
// table is rebuilt (an import in progress, a store written by an older version) the days are
// computed from the prices as before.

export const TRADING_CALENDAR_TABLE = 'trading_calendar';
/** meta key: the snapshot id the stored calendar was built for. */
const BUILT_FOR = 'trading_calendar_snapshot_id';

const DAY = `datediff('day', DATE '1970-01-01', date)::INTEGER`;

async function snapshotIdOf(conn: DuckDBConnection): Promise<string | null> {
  const rows = (await conn.runAndReadAll(`SELECT value FROM meta WHERE key = 'snapshot_id'`)).getRows();
  return rows.length > 0 && rows[0][0] !== null ? String(rows[0][0]) : null;
}

async function readDays(conn: DuckDBConnection, sql: string): Promise<Int32Array> {
  const r = await conn.runAndReadAll(sql);
  const col = r.getColumns()[0] ?? [];
  return Int32Array.from(col, (v) => Number(v));
}

/** Every day with a price, ascending epoch days, computed from the prices table. */
export function computeTradingCalendar(conn: DuckDBConnection): Promise<Int32Array> {
  return readDays(conn, `SELECT DISTINCT ${DAY} AS d FROM prices WHERE date IS NOT NULL ORDER BY d`);
}

/** Writes the calendar table for the store's current data (call after its snapshot id is set). */
export async function storeTradingCalendar(conn: DuckDBConnection): Promise<void> {
  await conn.run(
    `CREATE OR REPLACE TABLE ${TRADING_CALENDAR_TABLE} AS SELECT DISTINCT date FROM prices WHERE date IS NOT NULL ORDER BY date`,
  );
  const id = await snapshotIdOf(conn);
  if (id === null) await conn.run(`DELETE FROM meta WHERE key = $1`, [BUILT_FOR]);
  else await conn.run(`INSERT OR REPLACE INTO meta VALUES ($1, $2)`, [BUILT_FOR, id]);
}

/** The stored calendar when it was built for the store's current data, else null. */
export async function storedTradingCalendar(conn: DuckDBConnection): Promise<Int32Array | null> {
  const exists = (
    await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = $1`, [
      TRADING_CALENDAR_TABLE,
    ])
  ).getRows();
  if (Number(exists[0]?.[0] ?? 0) === 0) return null;
  const rows = (
    await conn.runAndReadAll(
      `SELECT (SELECT value FROM meta WHERE key = $1) AS built, (SELECT value FROM meta WHERE key = 'snapshot_id') AS current`,
      [BUILT_FOR],
    )
  ).getRows();
  const [built, current] = rows[0] ?? [null, null];
  if (built === null || current === null || String(built) !== String(current)) return null;
  return readDays(conn, `SELECT ${DAY} AS d FROM ${TRADING_CALENDAR_TABLE} ORDER BY d`);
}

/** The trading days: the stored table when it is current, else computed from the prices. */
export async function tradingCalendarOf(conn: DuckDBConnection): Promise<Int32Array> {
  return (await storedTradingCalendar(conn)) ?? computeTradingCalendar(conn);
}
