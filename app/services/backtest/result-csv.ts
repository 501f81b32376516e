import type { CsvRow, CsvTable } from '../http/csv';
import { holdingMetrics } from './result-view';
import type { StoredResult } from './stored-result';

// The CSV downloads of a backtest result: curves, holdings per rebalance, trades and monthly
// returns, written by http/csv.ts. Raw numbers (fractions as fractions), dates YYYY-MM-DD.

export const RESULT_TABLES = ['curves', 'holdings', 'trades', 'monthly'] as const;
export type ResultTableName = (typeof RESULT_TABLES)[number];

export function isResultTable(name: string): name is ResultTableName {
  return (RESULT_TABLES as readonly string[]).includes(name);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export function curvesTable(r: StoredResult): CsvTable {
  const survivors = r.survivors && r.survivors.equity.length === r.dates.length ? r.survivors.equity : null;
  return {
    header: ['date', 'equity', 'benchmark', 'drawdown', 'survivors_equity'],
    rows: r.dates.map((d, i) => [d, r.equity[i], r.benchmark[i], r.drawdown[i], survivors ? survivors[i] : null]),
  };
}

export function holdingsTable(r: StoredResult): CsvTable {
  const metrics = holdingMetrics(r.rebalances.flatMap((b) => b.holdings));
  const rows: CsvRow[] = [];
  r.rebalances.forEach((b, i) => {
    for (const h of b.holdings)
      rows.push([i + 1, b.signalDate, b.tradeDate, h.permaticker, h.ticker, h.weight, h.rank, ...metrics.map((m) => h.values[m] ?? null)]);
  });
  return { header: ['rebalance', 'signal_date', 'trade_date', 'permaticker', 'ticker', 'weight', 'rank', ...metrics], rows };
}

export function tradesTable(r: StoredResult): CsvTable {
  return {
    header: ['date', 'permaticker', 'ticker', 'side', 'reason', 'value', 'price', 'shares', 'cost'],
    rows: r.trades.map((t) => [t.date, t.permaticker, t.ticker, t.side, t.reason, t.value, t.price, t.shares, t.cost]),
  };
}

export function monthlyTable(r: StoredResult): CsvTable {
  return {
    header: ['year', ...MONTHS, 'year_return'],
    rows: r.statistics.monthlyReturns.map((m) => [m.year, ...m.months, m.year_return]),
  };
}

export function resultTable(r: StoredResult, name: ResultTableName): CsvTable {
  switch (name) {
    case 'curves':
      return curvesTable(r);
    case 'holdings':
      return holdingsTable(r);
    case 'trades':
      return tradesTable(r);
    case 'monthly':
      return monthlyTable(r);
  }
}
