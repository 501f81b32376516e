import { indices } from './metric-index';
import type { DividendColumns } from './types';

// Dividend metrics from cash dividends per share (corporate actions), known from their ex-date.
// Amounts are restated into the evaluation day's shares: a dividend of 1.00 paid before a 2:1
// split counts as 0.50, so growth across a split is not a fake halving.

/** The metrics computeDividends writes (an evaluation that needs none of them may skip it). */
export const DIVIDEND_METRIC_IDS = [
  'dividend_ttm',
  'dividend_yield',
  'dividend_growth_1y',
  'dividend_cagr_3y',
  'dividend_cagr_5y',
  'dividend_growth_streak',
  'dividend_paying_streak',
  'last_dividend',
  'last_dividend_date',
] as const;

const I = indices(DIVIDEND_METRIC_IDS);

const YEAR = 365;

/**
 * Each dividend's calendar year and `factorAt` its ex-date, for one security's dividends: the
 * same on every day evaluated, where each day's streaks and windows would look them up again
 * (a date and a binary search per dividend, per day).
 */
const perDividend = new WeakMap<DividendColumns, { factorAt: (day: number) => number; year: Int32Array; factor: Float64Array }>();

function dividendFacts(d: DividendColumns, factorAt: (day: number) => number) {
  const kept = perDividend.get(d);
  if (kept?.factorAt === factorAt) return kept;
  const year = Int32Array.from(d.exDate, (x) => new Date(x * 86_400_000).getUTCFullYear());
  const factor = Float64Array.from(d.exDate, (x) => factorAt(x));
  const facts = { factorAt, year, factor };
  perDividend.set(d, facts);
  return facts;
}

/** Dividends of (fromExclusive, toInclusive], restated into the evaluation day's shares; `last` the latest ex-date's index. */
function windowSum(
  d: DividendColumns,
  factor: Float64Array,
  factorNow: number,
  last: number,
  fromExclusive: number,
  toInclusive: number,
): number {
  let s = 0;
  for (let k = last; k >= 0 && d.exDate[k] > fromExclusive; k--) if (d.exDate[k] <= toInclusive) s += (d.amount[k] * factorNow) / factor[k];
  return s;
}

/** Per calendar year (at year - the first year paid), the restated dividends of the complete years before the day's; grown as needed. */
let perYear = new Float64Array(64);

function paidIn(y: number, first: number, thisYear: number): number {
  return y >= first && y < thisYear ? perYear[y - first] : 0;
}

/**
 * `factorAt(day)` is close_unadj / close on the last trading day on or before `day`; `factorNow`
 * the same on the evaluation day.
 *
 * Written without closures or a Map per call: it runs for every security on every day evaluated.
 */
export function computeDividends(
  d: DividendColumns,
  day: number,
  price: number,
  factorNow: number,
  factorAt: (day: number) => number,
  row: Float64Array,
): void {
  let last = -1;
  for (let k = 0; k < d.exDate.length && d.exDate[k] <= day; k++) last = k;
  const { year, factor } = dividendFacts(d, factorAt);
  const ttm = windowSum(d, factor, factorNow, last, day - YEAR, day);
  row[I.dividend_ttm] = ttm;
  row[I.dividend_yield] = price > 0 ? ttm / price : Number.NaN;
  if (last < 0) return;
  row[I.last_dividend] = (d.amount[last] * factorNow) / factor[last];
  row[I.last_dividend_date] = d.exDate[last];
  const prev1 = windowSum(d, factor, factorNow, last, day - 2 * YEAR, day - YEAR);
  const prev3 = windowSum(d, factor, factorNow, last, day - 4 * YEAR, day - 3 * YEAR);
  const prev5 = windowSum(d, factor, factorNow, last, day - 6 * YEAR, day - 5 * YEAR);
  row[I.dividend_growth_1y] = prev1 > 0 ? ttm / prev1 - 1 : Number.NaN;
  row[I.dividend_cagr_3y] = prev3 > 0 && ttm > 0 ? Math.pow(ttm / prev3, 1 / 3) - 1 : Number.NaN;
  row[I.dividend_cagr_5y] = prev5 > 0 && ttm > 0 ? Math.pow(ttm / prev5, 1 / 5) - 1 : Number.NaN;

  // Streaks over complete calendar years before the evaluation day's year (a year without a
  // dividend sums to 0).
  const thisYear = new Date(day * 86_400_000).getUTCFullYear();
  let first = thisYear;
  for (let k = 0; k <= last; k++) if (year[k] < first) first = year[k];
  const span = thisYear - first;
  if (span > perYear.length) perYear = new Float64Array(span * 2);
  perYear.fill(0, 0, span);
  for (let k = 0; k <= last; k++) {
    const y = year[k];
    if (y < thisYear) perYear[y - first] += (d.amount[k] * factorNow) / factor[k];
  }
  let paying = 0;
  for (let y = thisYear - 1; paidIn(y, first, thisYear) > 0; y--) paying++;
  let growing = 0;
  for (
    let y = thisYear - 1;
    paidIn(y - 1, first, thisYear) > 0 && paidIn(y, first, thisYear) > paidIn(y - 1, first, thisYear) * (1 + 1e-9);
    y--
  )
    growing++;
  row[I.dividend_paying_streak] = paying;
  row[I.dividend_growth_streak] = growing;
}
