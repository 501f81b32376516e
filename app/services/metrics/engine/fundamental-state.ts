import { CONCEPT_IDS } from '../../market/store/schema';
import { FLOW } from './facts';
import type { FactColumns } from './types';

// What a security's filings said, as known on a day. Facts are applied in availability order,
// so for every (concept, period) the newest filing known so far wins: a restatement replaces
// the old value only from its own filed date + 1. The state moves forward only; evaluating an
// earlier day needs a fresh state (the engine does that).
//
// Periods are kept as sorted arrays updated in place (filings arrive mostly in period order, so
// an insert is nearly always an append), and a view after a filing reuses them without copying:
// a rebuild costs O(concepts × log periods), not O(history).

export type Series = { end: number[]; val: number[] };

/** Period values per concept, ascending by period end. */
export type FundamentalView = {
  quarters: Series[];
  years: Series[];
  instants: Series[];
  /** Latest period end among quarters and balance sheets (the security's "latest quarter"). */
  latestEnd: number;
  /** Latest fiscal-year end. */
  latestYearEnd: number;
  /** Periods ending before this day are left out of derived series (see VIEW_HISTORY_DAYS). */
  cutoff: number;
};

const N_CONCEPTS = CONCEPT_IDS.length;
const SHARES_AVG = CONCEPT_IDS.indexOf('shares_diluted_avg');
/** Period ends of one fiscal period in different filings may differ by a few days (52/53-week years). */
export const END_TOLERANCE = 20;
/**
 * Derived series (Q4 from the fiscal year, FCF, gross profit) cover periods ending at most this
 * many days before the latest one: the longest look-back of any metric (a 5-year CAGR of a TTM,
 * with the fiscal year that derives its Q4) is about 2,500 days.
 */
export const VIEW_HISTORY_DAYS = 2700;

/** First index with ends[i] >= target. */
export function lowerBound(ends: readonly number[], target: number): number {
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ends[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function put(s: Series, end: number, value: number): void {
  const n = s.end.length;
  if (n === 0 || s.end[n - 1] < end) {
    s.end.push(end);
    s.val.push(value);
    return;
  }
  const i = lowerBound(s.end, end);
  if (s.end[i] === end) s.val[i] = value;
  else {
    s.end.splice(i, 0, end);
    s.val.splice(i, 0, value);
  }
}

export class FundamentalState {
  private cursor = 0;
  /** [instant, quarter, year, nine months to date] per concept. */
  private readonly slots: Series[][];
  private cachedView: FundamentalView | null = null;
  /** Index of the newest fact applied (provenance of the current values); -1 before any. */
  lastFact = -1;
  private maxEnd = Number.NEGATIVE_INFINITY;

  constructor(readonly facts: FactColumns) {
    this.slots = Array.from({ length: N_CONCEPTS }, () => [
      { end: [], val: [] },
      { end: [], val: [] },
      { end: [], val: [] },
      { end: [], val: [] },
    ]);
  }

  /** Applies every fact usable on `day` (available < day). Returns true when anything changed. */
  advanceTo(day: number): boolean {
    const f = this.facts;
    const n = f.value.length;
    const start = this.cursor;
    while (this.cursor < n && f.available[this.cursor] < day) {
      const i = this.cursor++;
      put(this.slots[f.concept[i]][f.periodKind[i]], f.periodEnd[i], f.value[i]);
      if ((f.periodKind[i] === 0 || f.periodKind[i] === 1) && f.periodEnd[i] > this.maxEnd) this.maxEnd = f.periodEnd[i];
      this.lastFact = i;
    }
    if (this.cursor !== start) this.cachedView = null;
    return this.cursor !== start;
  }

  view(): FundamentalView {
    this.cachedView ??= this.buildView();
    return this.cachedView;
  }

  private buildView(): FundamentalView {
    const quarters: Series[] = [];
    const years: Series[] = [];
    const instants: Series[] = [];
    let latestEnd = Number.NEGATIVE_INFINITY;
    let latestYearEnd = Number.NEGATIVE_INFINITY;
    const cutoff = this.maxEnd - VIEW_HISTORY_DAYS;
    for (let c = 0; c < N_CONCEPTS; c++) {
      const [inst, q, y, nine] = this.slots[c];
      instants.push(inst);
      years.push(y);
      const qs = FLOW[c] ? withDerivedQ4(q, y, c === SHARES_AVG, cutoff, nine) : q;
      quarters.push(qs);
      latestEnd = Math.max(latestEnd, lastEnd(qs), lastEnd(inst));
      latestYearEnd = Math.max(latestYearEnd, lastEnd(y));
    }
    return { quarters, years, instants, latestEnd, latestYearEnd, cutoff };
  }
}

/**
 * Companies file Q1–Q3 on 10-Qs and the full year on the 10-K, rarely a Q4. The missing Q4 is the
 * fiscal year minus its first nine months: the nine-month year-to-date figure when one is known
 * (`nine`: what 10-Qs report for per-share values, which do not add up over quarters), else the
 * sum of the year's three quarters, when exactly three are known inside that year. For an
 * average (weighted shares) the year's average stands in for the fourth quarter's. Only years
 * ending on or after `cutoff` are derived, and the result starts there. How each Q4 was made is
 * q4Derivation's answer.
 */
export function withDerivedQ4(
  q: Series,
  y: Series,
  average = false,
  cutoff = Number.NEGATIVE_INFINITY,
  nine: Series = EMPTY_SERIES,
): Series {
  let dEnd: number[] | null = null;
  let dVal: number[] | null = null;
  for (let k = lowerBound(y.end, cutoff); k < y.end.length; k++) {
    const fyEnd = y.end[k];
    if (nearestIndex(q.end, fyEnd, END_TOLERANCE) >= 0) continue;
    let value: number;
    if (average) {
      if (firstQuarterOfYear(q.end, fyEnd) < 0) continue;
      value = y.val[k];
    } else {
      const n = nineMonthsOfYear(nine.end, fyEnd);
      if (n >= 0) value = y.val[k] - nine.val[n];
      else {
        const a = firstQuarterOfYear(q.end, fyEnd);
        if (a < 0) continue;
        value = y.val[k] - (q.val[a] + q.val[a + 1] + q.val[a + 2]);
      }
    }
    (dEnd ??= []).push(fyEnd);
    (dVal ??= []).push(value);
  }
  if (dEnd === null || dVal === null) return q;
  const end: number[] = [];
  const val: number[] = [];
  let i = lowerBound(q.end, cutoff);
  let j = 0;
  while (i < q.end.length || j < dEnd.length) {
    if (j >= dEnd.length || (i < q.end.length && q.end[i] < dEnd[j])) {
      end.push(q.end[i]);
      val.push(q.val[i++]);
    } else {
      end.push(dEnd[j]);
      val.push(dVal[j++]);
    }
  }
  return { end, val };
}

const EMPTY_SERIES: Series = { end: [], val: [] };

/**
 * Index of the nine-month figure of the fiscal year ending `fyEnd` (its period ends about three
 * months before the year does), or -1.
 */
export function nineMonthsOfYear(ends: readonly number[], fyEnd: number): number {
  return nearestIndex(ends, fyEnd - 91, END_TOLERANCE);
}

/**
 * Index of the first of the three quarters that precede the fourth one inside the fiscal year
 * ending `fyEnd`, or -1 unless exactly three are known. The one definition of "the year's nine
 * months" for every derived Q4 (metrics and statements alike).
 */
export function firstQuarterOfYear(ends: readonly number[], fyEnd: number): number {
  const a = lowerBound(ends, fyEnd - 365 + END_TOLERANCE + 1);
  const b = lowerBound(ends, fyEnd - 45);
  return b - a === 3 ? a : -1;
}

/** Index of the period end closest to `target` within ±tol days, or -1. Ends are ascending. */
export function nearestIndex(ends: readonly number[], target: number, tol: number): number {
  const lo = lowerBound(ends, target);
  let best = -1;
  let bestGap = tol + 1;
  for (let j = lo - 1; j <= lo; j++) {
    if (j < 0 || j >= ends.length) continue;
    const gap = Math.abs(ends[j] - target);
    if (gap < bestGap) {
      best = j;
      bestGap = gap;
    }
  }
  return best;
}

export function valueNear(s: Series, target: number, tol = END_TOLERANCE): number {
  const j = nearestIndex(s.end, target, tol);
  return j < 0 ? Number.NaN : s.val[j];
}

export function lastEnd(s: Series): number {
  return s.end.length ? s.end[s.end.length - 1] : Number.NEGATIVE_INFINITY;
}
