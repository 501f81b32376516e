// Derived tables of the metrics layer, stored beside the market data in the same DuckDB file.
//
// Layout (measured, see bench/metrics.ts): one BLOB per (date, block of securities, metric)
// holding little-endian Float32 values (snapshot-values.ts) or their changes from the block's
// previous date (snapshot-deltas.ts), plus one BLOB of permatickers per (date, block). A screen or
// a backtest reads only the metrics it uses, a whole column at a time; a wide table of ~260 DOUBLE columns or a long (date, permaticker, metric,
// value) table were both slower to write from Node by orders of magnitude.

// 2: lookbacks count exchange trading days (a day without a bar keeps the previous close).
// 3: per-share values and share counts on the share basis of the day (splits from the store or
//    inferred from the filings); one TTM summation order shared with the statements.
// 4: Q4 EPS = the year's EPS minus the nine months' EPS (stored 9M facts) where filed; splits also
//    inferred from share counts, and an inferred split used only from the day after the filing
//    that confirmed it.
export const METRICS_ENGINE_VERSION = 4;

export const SNAPSHOT_DDL = `
CREATE TABLE IF NOT EXISTS metric_snapshot_dates (
  date DATE NOT NULL,
  month_end BOOLEAN NOT NULL,
  weekly BOOLEAN NOT NULL,
  latest BOOLEAN NOT NULL
);
CREATE TABLE IF NOT EXISTS metric_snapshot_blocks (
  date DATE NOT NULL,
  block INTEGER NOT NULL,
  permatickers BLOB NOT NULL   -- Int32Array, ascending
);
CREATE TABLE IF NOT EXISTS metric_snapshot_values (
  date DATE NOT NULL,
  block INTEGER NOT NULL,
  metric VARCHAR NOT NULL,
  data BLOB NOT NULL           -- Float32 values aligned with the block's permatickers (NaN = n/a), or their changes from the block's previous date (snapshot-deltas.ts)
);
CREATE TABLE IF NOT EXISTS metric_market_returns (
  date DATE NOT NULL,
  ret DOUBLE NOT NULL          -- equal-weighted mean daily total return of the universe (for beta)
);
CREATE TABLE IF NOT EXISTS metric_snapshot_inputs (
  permaticker INTEGER NOT NULL, -- -1: the exchange calendar, -2: the block partition
  kind VARCHAR NOT NULL,        -- p prices, d dividends, f facts (by filed), l last bar, s splits, x delisted, k share basis, c calendar, b blocks
  month DATE NOT NULL,          -- the month the rows fall in (l: the day); 1900-01-01 for what the whole history reads
  digest VARCHAR NOT NULL       -- a digest of the rows the snapshots read (what an incremental build compares)
);
`;

/** The universe's equal-weighted daily return, stored with the snapshots (beta, the home page's benchmark). */
export const MARKET_RETURNS_TABLE = 'metric_market_returns';

export const SNAPSHOT_TABLES = [
  'metric_snapshot_dates',
  'metric_snapshot_blocks',
  'metric_snapshot_values',
  'metric_market_returns',
  'metric_snapshot_inputs',
] as const;
