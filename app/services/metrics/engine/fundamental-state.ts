import { CONCEPT_IDS } from '../../market/store/schema';
import { FLOW } from './facts';
import type { FactColumns } from './types';

// What a security's filings said, as known on a day. Facts are applied in availability order,
// so for every (concept, period) the newest filing known so far wins: a restatement replaces
// the old value only from its own filed date + 1. The state moves forward only; evaluating an
// earlier day needs a fresh state (the engine does that).

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
};

const N_CONCEPTS = CONCEPT_IDS.length;
const SHARES_AVG = CONCEPT_IDS.indexOf('shares_diluted_avg');
/** Period ends of one fiscal period in different filings may differ by a few days (52/53-week years). */
export const END_TOLERANCE = 20;

export class FundamentalState {
  private cursor = 0;
  private readonly slots: Map<number, number>[][];
  private cachedView: FundamentalView | null = null;
  /** Index of the newest fact applied (provenance of the current values); -1 before any. */
  lastFact = -1;

  constructor(readonly facts: FactColumns) {
    this.slots = Array.from({ length: N_CONCEPTS }, () => [new Map(), new Map(), new Map()]);
  }

  /** Applies every fact usable on `day` (available < day). Returns true when anything changed. */
  advanceTo(day: number): boolean {
    const f = this.facts;
    const n = f.value.length;
    const start = this.cursor;
    while (this.cursor < n && f.available[this.cursor] < day) {
      const i = this.cursor++;
      this.slots[f.concept[i]][f.periodKind[i]].set(f.periodEnd[i], i);
      this.lastFact = i;
    }
    if (this.cursor !== start) this.cachedView = null;
    return this.cursor !== start;
  }

  get applied(): number {
    return this.cursor;
  }

  view(): FundamentalView {
    this.cachedView ??= this.buildView();
    return this.cachedView;
  }

  private series(map: Map<number, number>): Series {
    const ends = [...map.keys()].sort((a, b) => a - b);
    return { end: ends, val: ends.map((e) => this.facts.value[map.get(e)!]) };
  }

  private buildView(): FundamentalView {
    const quarters: Series[] = [];
    const years: Series[] = [];
    const instants: Series[] = [];
    let latestEnd = Number.NEGATIVE_INFINITY;
    let latestYearEnd = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < N_CONCEPTS; c++) {
      const [inst, q, y] = this.slots[c];
      instants.push(this.series(inst));
      const ys = this.series(y);
      years.push(ys);
      const qs = FLOW[c] ? withDerivedQ4(this.series(q), ys, c === SHARES_AVG) : this.series(q);
      quarters.push(qs);
      const lastQ = qs.end.length ? qs.end[qs.end.length - 1] : Number.NEGATIVE_INFINITY;
      const lastI = instants[c].end.length ? instants[c].end[instants[c].end.length - 1] : Number.NEGATIVE_INFINITY;
      const lastY = ys.end.length ? ys.end[ys.end.length - 1] : Number.NEGATIVE_INFINITY;
      latestEnd = Math.max(latestEnd, lastQ, lastI);
      latestYearEnd = Math.max(latestYearEnd, lastY);
    }
    return { quarters, years, instants, latestEnd, latestYearEnd };
  }
}

/**
 * Companies file Q1–Q3 on 10-Qs and the full year on the 10-K, rarely a Q4. The missing Q4 is the
 * fiscal year minus its three quarters, when exactly three are known inside that year. For an
 * average (weighted shares) the year's average stands in for the fourth quarter's.
 */
export function withDerivedQ4(q: Series, y: Series, average = false): Series {
  if (y.end.length === 0) return q;
  let end = q.end;
  let val = q.val;
  let copied = false;
  for (let k = 0; k < y.end.length; k++) {
    const fyEnd = y.end[k];
    if (nearestIndex(end, fyEnd, END_TOLERANCE) >= 0) continue;
    let sum = 0;
    let count = 0;
    for (let j = 0; j < end.length; j++) {
      if (end[j] > fyEnd - 365 + END_TOLERANCE && end[j] < fyEnd - 45) {
        sum += val[j];
        count++;
      }
    }
    if (count !== 3) continue;
    if (!copied) {
      end = end.slice();
      val = val.slice();
      copied = true;
    }
    let at = end.length;
    while (at > 0 && end[at - 1] > fyEnd) at--;
    end.splice(at, 0, fyEnd);
    val.splice(at, 0, average ? y.val[k] : y.val[k] - sum);
  }
  return { end, val };
}

/** Index of the period end closest to `target` within ±tol days, or -1. Ends are ascending. */
export function nearestIndex(ends: readonly number[], target: number, tol: number): number {
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ends[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  let best = -1;
  let bestGap = tol + 1;
  for (const j of [lo - 1, lo]) {
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
