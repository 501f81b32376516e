import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { addDays, addMonths, type IsoDate } from '../dates';
import type { MetricSnapshot } from '../metrics/engine/types';
import { MARKET_RETURNS_TABLE } from '../metrics/snapshot-schema';
import { loadSnapshot, storedSnapshotOn } from '../metrics/snapshots.server';
import { COMPANY_FILINGS_TABLE } from '../market/store/filings-table.server';
import { queryRows } from '../market/store/open-store.server';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import { storeTables } from '../market/store/tables.server';
import type { SecurityColumns } from '../market/store/security';
import { equalWeightIndex, movers, sectorPerformance, type SectorRow } from './market-summary';
import { filingArchiveUrl } from '../market/sec-links';

// The home page's market overview, as of a date: equal-weighted universe over the past year,
// sector performance, biggest movers and the most recent filings. The latest one (no as-of date,
// what the home page shows) is computed when the derived data is built after an import and
// stored in the store (buildStoredOverview); other dates are computed per request from the
// stored market returns, snapshot and filings table.

export type Mover = Pick<SecurityColumns, 'permaticker' | 'ticker' | 'name' | 'is_demo'> & { price: number | null; change: number | null };
export type RecentFiling = Pick<SecurityColumns, 'permaticker' | 'ticker' | 'name' | 'is_demo'> & {
  form: string | null;
  filed: IsoDate;
  accession: string | null;
  url: string | null;
};

export type MarketOverview = {
  /** Last trading day on or before the requested date (null without data). */
  date: IsoDate | null;
  /** Date of the snapshot behind sectors and movers (a stored month-end for past dates). */
  snapshotDate: IsoDate | null;
  benchmark: { date: IsoDate; value: number }[];
  benchmarkReturn: number | null;
  sectors: SectorRow[];
  gainers: Mover[];
  losers: Mover[];
  filings: RecentFiling[];
  companies: number;
  hasDemo: boolean;
};

/** Where an overview's data comes from: the app's reader, or the connection of a store being built. */
type OverviewSource = {
  all<T>(sql: string, params?: DuckDBValue[]): Promise<T[]>;
  tables: Set<string>;
  snapshot(asOf: IsoDate | 'latest', metrics: string[]): Promise<MetricSnapshot>;
};

const OVERVIEW_METRICS = ['price', 'price_change_1d', 'ret_1m', 'ret_ytd', 'ret_12m'];
const STORED_TABLE = 'market_overview_stored';
/** Bump when MarketOverview's shape changes: a stored overview of another version is recomputed. */
const STORED_VERSION = 1;

export async function marketOverview(asOf: IsoDate | null, options: MarketReadOptions = {}): Promise<MarketOverview> {
  const reader = await readMarket(options);
  const tables = await storeTables(reader);
  if (asOf === null && tables.has(STORED_TABLE)) {
    const [row] = await reader.all<{ body: string }>(`SELECT body FROM ${STORED_TABLE} WHERE version = $1`, [STORED_VERSION]);
    if (row) return JSON.parse(row.body) as MarketOverview;
  }
  return computeMarketOverview(
    {
      all: (sql, params) => reader.all(sql, params),
      tables,
      snapshot: (at, metrics) => loadSnapshot(at, { exact: false, marketDb: options.file, metrics }),
    },
    asOf,
  );
}

/** Computes the latest overview on a store being built (after its snapshots) and stores it there. */
export async function buildStoredOverview(conn: DuckDBConnection): Promise<void> {
  const names = await queryRows<{ name: string }>(conn, `SELECT table_name AS name FROM duckdb_tables() WHERE schema_name = 'main'`);
  const tables = new Set(names.map((r) => r.name));
  const overview = await computeMarketOverview(
    {
      all: (sql, params) => queryRows(conn, sql, params),
      tables,
      async snapshot(at, metrics) {
        const snap = await storedSnapshotOn(conn, at, metrics);
        if (!snap) throw new Error('No stored snapshot to build the market overview from');
        return snap;
      },
    },
    null,
  );
  await conn.run(`CREATE OR REPLACE TABLE ${STORED_TABLE} (version INTEGER NOT NULL, body VARCHAR NOT NULL)`);
  await conn.run(`INSERT INTO ${STORED_TABLE} VALUES ($1, $2)`, [STORED_VERSION, JSON.stringify(overview)]);
}

async function computeMarketOverview(src: OverviewSource, asOf: IsoDate | null): Promise<MarketOverview> {
  const reader = src;
  const [last] = await reader.all<{ date: IsoDate | null }>(
    `SELECT max(date) AS date FROM prices ${asOf ? 'WHERE date <= $1::DATE' : ''}`,
    asOf ? [asOf] : [],
  );
  const date = last?.date ?? null;
  const empty: MarketOverview = {
    date,
    snapshotDate: null,
    benchmark: [],
    benchmarkReturn: null,
    sectors: [],
    gainers: [],
    losers: [],
    filings: [],
    companies: 0,
    hasDemo: false,
  };
  if (!date) return empty;
  const from = addDays(addMonths(date, -12), 1);
  // The universe's daily mean return: stored with the snapshots (every security's return from
  // its previous bar); a store without it computes it from the year's prices.
  const returns = src.tables.has(MARKET_RETURNS_TABLE)
    ? await reader.all<{ date: IsoDate; ret: number | null }>(
        `SELECT date, ret FROM ${MARKET_RETURNS_TABLE} WHERE date >= $1::DATE AND date <= $2::DATE ORDER BY date`,
        [from, date],
      )
    : await reader.all<{ date: IsoDate; ret: number | null }>(
        `WITH r AS (
       SELECT date, permaticker, coalesce(tri, close) / lag(coalesce(tri, close)) OVER (PARTITION BY permaticker ORDER BY date) - 1 AS ret
         FROM prices WHERE date >= $1::DATE - INTERVAL 10 DAY AND date <= $2::DATE
     )
     SELECT date, list_avg(list(ret ORDER BY permaticker)) AS ret FROM r WHERE date >= $1::DATE AND ret IS NOT NULL AND isfinite(ret) GROUP BY date ORDER BY date`,
        [from, date],
      );
  const benchmark = equalWeightIndex(returns);
  const benchmarkReturn = benchmark.length > 1 ? benchmark[benchmark.length - 1].value / 100 - 1 : null;

  const securities = await reader.all<Pick<SecurityColumns, 'permaticker' | 'ticker' | 'name' | 'sector' | 'is_demo'>>(
    `SELECT permaticker, ticker, name, sector, is_demo FROM securities`,
  );
  const byId = new Map(securities.map((s) => [s.permaticker, s]));
  const snap = await src.snapshot(asOf ?? 'latest', OVERVIEW_METRICS);
  const rows = Array.from(snap.permatickers, (p, i) => ({ p, i }));
  const val = (id: string, i: number) => {
    const v = snap.values[id][i];
    return Number.isFinite(v) ? v : null;
  };
  const sectors = sectorPerformance(
    rows.map(({ p, i }) => ({
      sector: byId.get(p)?.sector ?? null,
      ret1m: val('ret_1m', i),
      retYtd: val('ret_ytd', i),
      ret1y: val('ret_12m', i),
    })),
  );
  const moverRows = rows.map(({ p, i }) => {
    const s = byId.get(p);
    return {
      key: s?.ticker ?? String(p),
      value: val('price_change_1d', i),
      permaticker: p,
      ticker: s?.ticker ?? String(p),
      name: s?.name ?? '',
      is_demo: s?.is_demo ?? false,
      price: val('price', i),
    };
  });
  const m = movers(moverRows, 5);
  const toMover = (r: (typeof moverRows)[number]): Mover => ({
    permaticker: r.permaticker,
    ticker: r.ticker,
    name: r.name,
    is_demo: r.is_demo,
    price: r.price,
    change: r.value,
  });

  const filings = await reader.all<Omit<RecentFiling, 'url'> & { cik: string | null }>(
    `SELECT f.permaticker, s.ticker, s.name, f.form, f.filed, f.accession, s.cik, s.is_demo
       FROM ${src.tables.has(COMPANY_FILINGS_TABLE) ? COMPANY_FILINGS_TABLE : '(SELECT permaticker, form, filed, accession FROM facts GROUP BY ALL)'} f
       JOIN securities s USING (permaticker)
      WHERE f.filed < $1::DATE
      ORDER BY f.filed DESC, s.ticker LIMIT 10`,
    // Known from the day after filing: as of D, filings dated before D.
    [asOf ?? date],
  );
  return {
    date,
    snapshotDate: snap.date,
    benchmark,
    benchmarkReturn,
    sectors,
    gainers: m.gainers.map(toMover),
    losers: m.losers.map(toMover),
    filings: filings.map(({ cik, ...f }) => ({ ...f, url: filingArchiveUrl(cik, f.accession, f.is_demo) })),
    companies: snap.permatickers.length,
    hasDemo: securities.some((s) => s.is_demo),
  };
}
