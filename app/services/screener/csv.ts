import { getMetric } from '../metrics/catalogue';
import type { ScreenPage } from './engine';

// CSV of exactly the rows and columns a results table shows. Numbers are written raw (fractions
// as fractions) so a spreadsheet gets values, not formatted text.

export function csvCell(v: string | number | null): string {
  if (v === null) return '';
  const s = typeof v === 'number' ? String(v) : v;
  // A leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(s) && typeof v !== 'number' ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function resultsCsv(page: Pick<ScreenPage, 'rows' | 'columns'>, opts: { rank: boolean }): string {
  const header = [
    'ticker',
    'name',
    'sector',
    'industry',
    'exchange',
    ...(opts.rank ? ['rank'] : []),
    ...page.columns.map((c) => getMetric(c)?.label ?? c),
  ];
  const lines = [header.map(csvCell).join(',')];
  for (const r of page.rows) {
    lines.push(
      [r.ticker, r.name, r.sector, r.industry, r.exchange, ...(opts.rank ? [r.rank] : []), ...page.columns.map((c) => r.values[c] ?? null)]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
