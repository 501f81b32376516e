import type { IsoDate } from '../dates';

// Dividend history of one company: every cash dividend (ex-date, amount as paid), restated into
// today's shares so that a split does not look like a dividend cut, and calendar-year totals.

export type DividendEvent = { date: IsoDate; amount: number };
export type SplitEvent = { date: IsoDate; ratio: number };
export type DividendRow = { date: IsoDate; amount: number; adjusted: number };
export type AnnualTotal = { year: number; total: number; payments: number; growth: number | null };

/**
 * amount ÷ (product of the split ratios of splits after the ex-date, up to the as-of date).
 * A 2-for-1 split after a 1.00 dividend makes it 0.50 in today's shares.
 */
export function adjustForSplits(dividends: readonly DividendEvent[], splits: readonly SplitEvent[]): DividendRow[] {
  return [...dividends]
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map((d) => {
      let factor = 1;
      for (const s of splits) if (s.date > d.date && s.ratio > 0) factor *= s.ratio;
      return { date: d.date, amount: d.amount, adjusted: d.amount / factor };
    });
}

/**
 * Totals per calendar year of the adjusted amounts, oldest first, with growth over the previous
 * year (null when that year paid nothing). The as-of year is partial and flagged by the caller.
 */
export function annualTotals(rows: readonly DividendRow[]): AnnualTotal[] {
  const byYear = new Map<number, { total: number; payments: number }>();
  for (const r of rows) {
    const y = Number(r.date.slice(0, 4));
    const e = byYear.get(y) ?? { total: 0, payments: 0 };
    e.total += r.adjusted;
    e.payments += 1;
    byYear.set(y, e);
  }
  const years = [...byYear.keys()].sort((a, b) => a - b);
  return years.map((year) => {
    const e = byYear.get(year)!;
    const prev = byYear.get(year - 1);
    return { year, total: e.total, payments: e.payments, growth: prev && prev.total > 0 ? e.total / prev.total - 1 : null };
  });
}
