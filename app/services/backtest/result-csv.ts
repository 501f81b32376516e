import type { CsvRow, CsvStream, CsvTable } from '../http/csv';
import type { LoadedResult, StoredLight } from './stored-rows';

// The CSV downloads of a backtest result: curves, holdings per rebalance, trades and monthly
// returns, written by http/csv.ts. Raw numbers (fractions as fractions), dates YYYY-MM-DD.
// Holdings and trades (millions of rows for a daily run) are streamed in batches: each batch
// reads only the stored parts that hold its rows.

export const RESULT_TABLES = ['curves', 'holdings', 'trades', 'monthly'] as const;
export type ResultTableName = (typeof RESULT_TABLES)[number];

/** Rows read and written at a time when streaming holdings or trades. */
export const CSV_BATCH_ROWS = 2_000;

export function isResultTable(name: string): name is ResultTableName {
  return (RESULT_TABLES as readonly string[]).includes(name);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export function curvesTable(r: StoredLight): CsvTable {
  const survivors = r.survivors && r.survivors.equity.length === r.dates.length ? r.survivors.equity : null;
  return {
    header: ['date', 'equity', 'benchmark', 'drawdown', 'survivors_equity'],
    rows: r.dates.map((d, i) => [d, r.equity[i], r.benchmark[i], r.drawdown[i], survivors ? survivors[i] : null]),
  };
}

export function holdingsTable(r: LoadedResult, batchRows = CSV_BATCH_ROWS): CsvStream {
  const metrics = r.rows.holdingMetrics();
  async function* batches(): AsyncGenerator<CsvRow[]> {
    let rows: CsvRow[] = [];
    for (const [i, b] of r.light.rebalances.entries()) {
      for (const h of await r.rows.holdingsOf(i))
        rows.push([
          i + 1,
          b.signalDate,
          b.tradeDate,
          h.permaticker,
          h.ticker,
          h.weight,
          h.rank,
          ...metrics.map((m) => h.values[m] ?? null),
        ]);
      if (rows.length >= batchRows) {
        yield rows;
        rows = [];
      }
    }
    if (rows.length) yield rows;
  }
  return { header: ['rebalance', 'signal_date', 'trade_date', 'permaticker', 'ticker', 'weight', 'rank', ...metrics], batches: batches() };
}

export function tradesTable(r: LoadedResult, batchRows = CSV_BATCH_ROWS): CsvStream {
  async function* batches(): AsyncGenerator<CsvRow[]> {
    for (let from = 0; from < r.rows.tradeCount; from += batchRows)
      yield (await r.rows.tradeSlice(from, from + batchRows)).map((t) => [
        t.date,
        t.permaticker,
        t.ticker,
        t.side,
        t.reason,
        t.value,
        t.price,
        t.shares,
        t.cost,
      ]);
  }
  return { header: ['date', 'permaticker', 'ticker', 'side', 'reason', 'value', 'price', 'shares', 'cost'], batches: batches() };
}

export function monthlyTable(r: StoredLight): CsvTable {
  return {
    header: ['year', ...MONTHS, 'year_return'],
    rows: r.statistics.monthlyReturns.map((m) => [m.year, ...m.months, m.year_return]),
  };
}

async function* once(rows: readonly CsvRow[]): AsyncGenerator<readonly CsvRow[]> {
  yield rows;
}

const streamed = (t: CsvTable): CsvStream => ({ header: t.header, batches: once(t.rows) });

export function resultTable(r: LoadedResult, name: ResultTableName): CsvStream {
  switch (name) {
    case 'curves':
      return streamed(curvesTable(r.light));
    case 'holdings':
      return holdingsTable(r);
    case 'trades':
      return tradesTable(r);
    case 'monthly':
      return streamed(monthlyTable(r.light));
  }
}
