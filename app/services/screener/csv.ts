import type { CsvTable } from '../http/csv';
import { getMetric } from '../metrics/catalogue';
import { exportMetricHeader, exportMetricValue } from '../metrics/format';
import type { ScreenPage } from './engine';

// The CSV of every result of a screen with the columns the results table shows (written by
// http/csv.ts). Values are numbers at the page's precision, percentages as percents (the column
// title says "(%)"), so a spreadsheet gets what the page shows without float noise.

export function resultsTable(page: Pick<ScreenPage, 'rows' | 'columns'>, opts: { rank: boolean }): CsvTable {
  const header = [
    'ticker',
    'name',
    'sector',
    'industry',
    'exchange',
    ...(opts.rank ? ['rank'] : []),
    ...page.columns.map((c) => {
      const def = getMetric(c);
      return def ? exportMetricHeader(def) : c;
    }),
  ];
  const rows = page.rows.map((r) => [
    r.ticker,
    r.name,
    r.sector,
    r.industry,
    r.exchange,
    ...(opts.rank ? [r.rank] : []),
    ...page.columns.map((c) => {
      const def = getMetric(c);
      return def ? exportMetricValue(def, r.values[c]) : (r.values[c] ?? null);
    }),
  ]);
  return { header, rows };
}
