import { lowerBound, nearestIndex, type Series, END_TOLERANCE } from './fundamental-state';

// Trailing sums and growth over a quarterly series. Periods are found by their end date
// (k quarters back = end − 91.31·k days, ± END_TOLERANCE), so a missing quarter gives NaN
// instead of silently summing four quarters that are not consecutive.

const QUARTER_DAYS = 365.25 / 4;

export function quarterBack(end: number, k: number): number {
  return Math.round(end - QUARTER_DAYS * k);
}

export function quarterAt(s: Series, end: number): number {
  const j = nearestIndex(s.end, end, END_TOLERANCE);
  return j < 0 ? Number.NaN : s.val[j];
}

/** Sum (or mean) of the four quarters ending at `end`; NaN unless all four are known. */
export function ttmAt(s: Series, end: number, mean = false): number {
  // The quarters as ttmIndices finds them, without an array per call: a snapshot build calls this
  // some sixty times for every filing of every security, and the arrays were about a third of
  // what its evaluator threads allocated.
  const j0 = ttmQuarter(s.end, end, 0, -1);
  if (j0 < 0) return Number.NaN;
  const j1 = ttmQuarter(s.end, end, 1, j0);
  if (j1 < 0) return Number.NaN;
  const j2 = ttmQuarter(s.end, end, 2, j1);
  if (j2 < 0) return Number.NaN;
  const j3 = ttmQuarter(s.end, end, 3, j2);
  if (j3 < 0) return Number.NaN;
  // Summed oldest first: one fixed order, so the statements' TTM and the metric's are the same double.
  let sum = 0;
  sum += s.val[j3];
  sum += s.val[j2];
  sum += s.val[j1];
  sum += s.val[j0];
  return mean ? sum / 4 : sum;
}

/**
 * Index of the quarter `k` back in the trailing twelve months ending at `end`, or -1 when it is
 * not known or is the same period as the one found for k − 1 (`prev`).
 */
function ttmQuarter(ends: readonly number[], end: number, k: number, prev: number): number {
  const j = nearestIndex(ends, quarterBack(end, k), END_TOLERANCE);
  return j === prev ? -1 : j;
}

/**
 * Indices of the four quarters ending at `end` (newest first), or null unless all four are
 * known: the statements' trailing twelve months, the same quarters (ttmQuarter) as the metrics'.
 */
export function ttmIndices(ends: readonly number[], end: number): [number, number, number, number] | null {
  const out: number[] = [];
  let prev = -1;
  for (let k = 0; k < 4; k++) {
    const j = ttmQuarter(ends, end, k, prev);
    if (j < 0) return null;
    prev = j;
    out.push(j);
  }
  return out as [number, number, number, number];
}

/** Simple growth; NaN when the base is not positive (growth from a loss has no meaning). */
export function growth(current: number, previous: number): number {
  if (!(previous > 0) || !Number.isFinite(current)) return Number.NaN;
  return current / previous - 1;
}

/** Compound annual growth; NaN unless both ends are positive. */
export function cagr(current: number, previous: number, years: number): number {
  if (!(previous > 0) || !(current > 0)) return Number.NaN;
  return Math.pow(current / previous, 1 / years) - 1;
}

/** Element-wise combination of two series on matching period ends (e.g. OCF − capex). */
export function combine(a: Series, b: Series, op: (x: number, y: number) => number, cutoff = Number.NEGATIVE_INFINITY): Series {
  const end: number[] = [];
  const val: number[] = [];
  for (let i = lowerBound(a.end, cutoff); i < a.end.length; i++) {
    const j = nearestIndex(b.end, a.end[i], 5);
    if (j < 0) continue;
    const v = op(a.val[i], b.val[j]);
    if (!Number.isFinite(v)) continue;
    end.push(a.end[i]);
    val.push(v);
  }
  return { end, val };
}

/** `a` where filed, else the fallback's value for that period (gross profit = revenue − cost). */
export function preferOr(a: Series, fallback: Series, cutoff = Number.NEGATIVE_INFINITY): Series {
  if (fallback.end.length === 0) return a;
  const from = lowerBound(a.end, cutoff);
  const end = a.end.slice(from);
  const val = a.val.slice(from);
  for (let i = 0; i < fallback.end.length; i++) {
    if (nearestIndex(a.end, fallback.end[i], 5) >= 0) continue;
    let at = end.length;
    while (at > 0 && end[at - 1] > fallback.end[i]) at--;
    end.splice(at, 0, fallback.end[i]);
    val.splice(at, 0, fallback.val[i]);
  }
  return { end, val };
}
