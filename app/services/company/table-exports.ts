import type { CsvRow, CsvTable } from '../http/csv';
import type { BrowserData } from '../data-browser/data-browser.server';
import type { Dividends, FilingRow, ChartData } from './company-pages.server';
import type { Statement } from './financials';
import type { MarketOverview } from '../market-overview/market-overview.server';
import type { Valuation } from './valuation.server';

// Every table of the company, data-browser and home pages as header + rows, for the CSV
// downloads (written by http/csv.ts). Raw numbers (fractions as fractions), dates as YYYY-MM-DD.

export function filingsTable(filings: readonly FilingRow[]): CsvTable {
  return {
    header: ['form', 'filed', 'period_end', 'accession', 'url'],
    rows: filings.map((f) => [f.form, f.filed, f.period_end, f.accession, f.url]),
  };
}

export function pricesTable(chart: ChartData): CsvTable {
  return {
    header: ['date', 'open', 'high', 'low', 'close', 'volume', 'sma50', 'sma200'],
    rows: chart.prices.map((p, i) => [p.date, p.open, p.high, p.low, p.close, p.volume, chart.sma50[i], chart.sma200[i]]),
  };
}

/** One row per line and period (long format), with the filing of each value. */
export function statementTable(s: Statement): CsvTable {
  const rows: CsvRow[] = [];
  for (const line of s.lines)
    s.columns.forEach((c, i) => {
      const cell = line.cells[i];
      if (cell)
        rows.push([
          line.id,
          c.label,
          c.periodEnd,
          cell.value,
          cell.filed,
          cell.form,
          cell.accession,
          cell.url,
          cell.derived ? 'derived' : 'filed',
          cell.reported,
          cell.derivation,
        ]);
    });
  for (const r of [...s.growth, ...s.margins])
    s.columns.forEach((c, i) => {
      if (r.values[i] !== null)
        rows.push([r.id, c.label, c.periodEnd, r.values[i], null, null, null, null, 'derived', null, 'ratio of the lines shown']);
    });
  // `value` is adjusted for splits to the as-of date; `value_as_filed` is the filing's own number;
  // `derivation` says how a derived value was computed (FY − 9M, FY − Q1 − Q2 − Q3, sum of 4 quarters …).
  return {
    header: ['line', 'period', 'period_end', 'value', 'filed', 'form', 'accession', 'url', 'kind', 'value_as_filed', 'derivation'],
    rows,
  };
}

export function dividendsTable(d: Dividends): CsvTable {
  return { header: ['ex_date', 'amount_as_paid', 'amount_adjusted'], rows: d.history.map((r) => [r.date, r.amount, r.adjusted]) };
}

export function valuationTable(v: Valuation): CsvTable {
  const rows: CsvRow[] = [];
  for (const s of v.series) for (const p of s.points) rows.push([s.metric, p.date, p.company, p.sectorMedian]);
  return { header: ['metric', 'date', 'company', 'sector_median'], rows };
}

/**
 * The data browser's table exactly as shown: newest date first, per company its value and the
 * filing it comes from (form, filed date, accession; n/a for values resting on prices alone).
 */
export function browserTable(b: BrowserData): CsvTable {
  return {
    header: [
      'date',
      ...b.companies.flatMap((c) => [`${c.ticker} (${c.permaticker})`, `${c.ticker} form`, `${c.ticker} filed`, `${c.ticker} accession`]),
    ],
    rows: b.rows
      .map((r, i): CsvRow => [
        r.date,
        ...r.values.flatMap((v, k) => {
          const f = b.filings[i][k];
          return [v, f?.form ?? null, f?.filed ?? null, f?.accession ?? null];
        }),
      ])
      .reverse(),
  };
}

export function marketTable(o: MarketOverview, table: 'sectors' | 'movers' | 'filings'): CsvTable {
  if (table === 'sectors')
    return {
      header: ['sector', 'companies', 'median_return_1m', 'median_return_ytd', 'median_return_12m', 'average_return_12m'],
      rows: o.sectors.map((s) => [s.sector, s.companies, s.medianReturn1m, s.medianReturnYtd, s.medianReturn1y, s.averageReturn1y]),
    };
  if (table === 'movers')
    return {
      header: ['side', 'permaticker', 'ticker', 'name', 'price', 'change_1d'],
      rows: [
        ...o.gainers.map((m): CsvRow => ['gainer', m.permaticker, m.ticker, m.name, m.price, m.change]),
        ...o.losers.map((m): CsvRow => ['loser', m.permaticker, m.ticker, m.name, m.price, m.change]),
      ],
    };
  return {
    header: ['permaticker', 'ticker', 'name', 'form', 'filed', 'accession', 'url'],
    rows: o.filings.map((f) => [f.permaticker, f.ticker, f.name, f.form, f.filed, f.accession, f.url]),
  };
}
