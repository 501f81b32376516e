import { toEpochDay, type IsoDate } from '../dates';
import { mean, median } from '../stats';

// Valuation multiples through time against the company's own five-year average and its sector's
// median. Points are month-end snapshots, so every value is what was known on that day.

export const VALUATION_METRICS = ['pe_ttm', 'ps_ttm', 'pb', 'ev_ebitda_ttm', 'ev_sales_ttm', 'fcf_yield'] as const;
export type ValuationMetric = (typeof VALUATION_METRICS)[number];

/** Mean of the company's values dated within `years` years up to and including `end`. */
export function trailingAverage(points: readonly { date: IsoDate; value: number | null }[], end: IsoDate, years = 5): number | null {
  const to = toEpochDay(end);
  const from = to - Math.round(365.25 * years);
  return mean(points.filter((p) => toEpochDay(p.date) > from && toEpochDay(p.date) <= to).map((p) => p.value));
}

/** Multiples are meaningless when negative (a loss-making P/E): they are shown as n/a. */
export function meaningfulMultiple(metric: ValuationMetric, value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  if (metric === 'fcf_yield') return value;
  return value > 0 ? value : null;
}

/** The sector median of a multiple on one date: the median of its companies' meaningful values. */
export function sectorMedian(metric: ValuationMetric, values: readonly number[]): number | null {
  return median(values.map((v) => meaningfulMultiple(metric, v)));
}
