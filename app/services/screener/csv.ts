import type { CsvTable } from '../http/csv';
import { getMetric } from '../metrics/catalogue';
import type { ScreenPage } from './engine';

// The CSV of exactly the rows and columns a results table shows (written by http/csv.ts).
// Numbers are raw (fractions as fractions) so a spreadsheet gets values, not formatted text.

export function resultsTable(page: Pick<ScreenPage, 'rows' | 'columns'>, opts: { rank: boolean }): CsvTable {
  const header = [
    'ticker',
    'name',
    'sector',
    'industry',
    'exchange',
    ...(opts.rank ? ['rank'] : []),
    ...page.columns.map((c) => getMetric(c)?.label ?? c),
  ];
  const rows = page.rows.map((r) => [
    r.ticker,
    r.name,
    r.sector,
    r.industry,
    r.exchange,
    ...(opts.rank ? [r.rank] : []),
    ...page.columns.map((c) => r.values[c] ?? null),
  ]);
  return { header, rows };
}
