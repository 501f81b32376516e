// The DuckDB market store. Importers write it through a writer; the app opens it
// read-only. Identity is the permaticker: a permanent integer that survives ticker changes.
//
// Conventions every importer follows:
// - dates are exchange-local calendar days stored as DATE (`YYYY-MM-DD` in TypeScript);
// - prices.close / open / high / low are split-adjusted (as of the latest split), close_unadj is
//   the price as traded that day, and tri is a total-return index (splits and reinvested
//   dividends; any positive base) from which returns are tri[t] / tri[t-1] - 1;
// - facts are stored as filed: one row per (concept, period, filing); a restatement is a new row
//   with its own filed date and accession. A fact is known from the day AFTER `filed`.
// - flow concepts (revenue, net income, cash flows...) are stored per fiscal quarter
//   (fiscal_period Q1..Q4, ~3-month duration) and per fiscal year (FY, ~12 months);
//   per-share flows (EPS) also keep the 10-Q's nine-month year-to-date figure (fiscal_period 9M),
//   from which a fourth-quarter EPS is derived; instant concepts (balance sheet, shares) have
//   period_start NULL.
// - prices hold one row per (permaticker, date). The table has no primary key (its index cost
//   ~220 MB and ~2x the write time on the 6,000-company demo, and no query needs it): the writer
//   keeps the rows unique, replacing a security's rows as a whole and refusing a batch that
//   repeats a (permaticker, date). Stores written before keep their key; both read the same.

export const MARKET_SCHEMA_VERSION = 1;

export const MARKET_DDL = `
CREATE TABLE IF NOT EXISTS meta (
  key VARCHAR PRIMARY KEY,
  value VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS securities (
  permaticker INTEGER PRIMARY KEY,
  ticker VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  exchange VARCHAR,
  category VARCHAR,
  sector VARCHAR,
  industry VARCHAR,
  cik VARCHAR,
  currency VARCHAR NOT NULL DEFAULT 'USD',
  description VARCHAR,
  first_price_date DATE,
  last_price_date DATE,
  is_delisted BOOLEAN NOT NULL DEFAULT false,
  is_demo BOOLEAN NOT NULL DEFAULT false,
  source VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS ticker_history (
  permaticker INTEGER NOT NULL,
  ticker VARCHAR NOT NULL,
  start_date DATE,
  end_date DATE
);
CREATE TABLE IF NOT EXISTS prices (
  permaticker INTEGER NOT NULL,
  date DATE NOT NULL,
  open DOUBLE,
  high DOUBLE,
  low DOUBLE,
  close DOUBLE NOT NULL,
  volume DOUBLE,
  close_unadj DOUBLE,
  tri DOUBLE                 -- no key: one row per (permaticker, date) by construction (writer.server.ts)
);
CREATE TABLE IF NOT EXISTS corporate_actions (
  permaticker INTEGER NOT NULL,
  date DATE NOT NULL,
  action VARCHAR NOT NULL,   -- dividend | split | delisting | acquisition | bankruptcy | ticker_change | listing
  value DOUBLE,              -- cash per share (dividend), new shares per old share (split), price (acquisition)
  detail VARCHAR,            -- e.g. the new ticker, the acquirer
  source VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS facts (
  permaticker INTEGER NOT NULL,
  concept VARCHAR NOT NULL,  -- a canonical concept from CONCEPTS below
  value DOUBLE NOT NULL,
  unit VARCHAR NOT NULL,     -- USD, USD/shares, shares
  period_start DATE,
  period_end DATE NOT NULL,
  fiscal_year INTEGER,
  fiscal_period VARCHAR,     -- Q1 Q2 Q3 Q4 FY, 9M (nine months to date, per-share values only)
  form VARCHAR,              -- 10-Q 10-K 10-K/A ...
  filed DATE NOT NULL,
  accession VARCHAR,         -- 0000320193-23-000106; links to the SEC archive
  source VARCHAR NOT NULL,
  source_tag VARCHAR         -- the tag it came from (e.g. us-gaap:Revenues)
);
CREATE TABLE IF NOT EXISTS import_runs (
  id VARCHAR PRIMARY KEY,
  source VARCHAR NOT NULL,
  started_at VARCHAR NOT NULL,
  finished_at VARCHAR,
  status VARCHAR NOT NULL,   -- running | done | failed
  detail VARCHAR
);
`;

/** Canonical fundamental concepts every importer maps onto. */
export const CONCEPTS = {
  revenue: { unit: 'USD', kind: 'flow', label: 'Revenue' },
  cost_of_revenue: { unit: 'USD', kind: 'flow', label: 'Cost of revenue' },
  gross_profit: { unit: 'USD', kind: 'flow', label: 'Gross profit' },
  sga: { unit: 'USD', kind: 'flow', label: 'Selling, general & administrative' },
  rnd: { unit: 'USD', kind: 'flow', label: 'Research & development' },
  operating_income: { unit: 'USD', kind: 'flow', label: 'Operating income' },
  interest_expense: { unit: 'USD', kind: 'flow', label: 'Interest expense' },
  pretax_income: { unit: 'USD', kind: 'flow', label: 'Pre-tax income' },
  income_tax: { unit: 'USD', kind: 'flow', label: 'Income tax' },
  net_income: { unit: 'USD', kind: 'flow', label: 'Net income' },
  eps_basic: { unit: 'USD/shares', kind: 'flow', label: 'EPS (basic)' },
  eps_diluted: { unit: 'USD/shares', kind: 'flow', label: 'EPS (diluted)' },
  depreciation: { unit: 'USD', kind: 'flow', label: 'Depreciation & amortisation' },
  operating_cash_flow: { unit: 'USD', kind: 'flow', label: 'Operating cash flow' },
  capex: { unit: 'USD', kind: 'flow', label: 'Capital expenditure' },
  dividends_paid: { unit: 'USD', kind: 'flow', label: 'Dividends paid' },
  share_buybacks: { unit: 'USD', kind: 'flow', label: 'Share repurchases' },
  shares_diluted_avg: { unit: 'shares', kind: 'flow', label: 'Diluted weighted shares' },
  shares_outstanding: { unit: 'shares', kind: 'instant', label: 'Shares outstanding' },
  cash: { unit: 'USD', kind: 'instant', label: 'Cash & equivalents' },
  receivables: { unit: 'USD', kind: 'instant', label: 'Receivables' },
  inventory: { unit: 'USD', kind: 'instant', label: 'Inventory' },
  current_assets: { unit: 'USD', kind: 'instant', label: 'Current assets' },
  total_assets: { unit: 'USD', kind: 'instant', label: 'Total assets' },
  current_liabilities: { unit: 'USD', kind: 'instant', label: 'Current liabilities' },
  total_liabilities: { unit: 'USD', kind: 'instant', label: 'Total liabilities' },
  long_term_debt: { unit: 'USD', kind: 'instant', label: 'Long-term debt' },
  short_term_debt: { unit: 'USD', kind: 'instant', label: 'Short-term debt' },
  equity: { unit: 'USD', kind: 'instant', label: "Shareholders' equity" },
  retained_earnings: { unit: 'USD', kind: 'instant', label: 'Retained earnings' },
} as const;

export type Concept = keyof typeof CONCEPTS;
export const CONCEPT_IDS = Object.keys(CONCEPTS) as Concept[];
