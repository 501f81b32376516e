import type { RankPart } from '../model';
import { metricColumn } from './compile-expression';
import type { PreparedUniverse } from './types';

// The ranking of the rows that pass: each metric's percentile score among those rows (1 = best,
// 1/n = worst with a value, 0 = n/a, so n/a sorts last), averaged with the weights. One metric
// therefore orders by that metric; several make a Portfolio123-style composite rank.
// Backtests rank on every rebalance date, so neither step calls a comparator per comparison:
// scores and the order come from quicksorts with the comparison written inline.

/**
 * `order`: the rows, best first. Its first `ordered` positions are final, with their competition
 * ranks in `rank`; the rows after them all rank below them, in no particular order (and rank NaN)
 * until `orderMore` orders them. A full ranking has `ordered` = the number of rows.
 */
export type Ranked = { order: Int32Array; score: Float64Array; rank: Float64Array; ordered: number };

export function scoreRows(parts: readonly RankPart[], p: PreparedUniverse, rows: Int32Array): Float64Array {
  const total = new Float64Array(p.size);
  const weightSum = parts.reduce((s, x) => s + x.weight, 0);
  const buffer = new Int32Array(rows.length);
  const sorted = new Float64Array(rows.length);
  for (const part of parts) {
    const col = metricColumn(p.snapshot, part.metric);
    let n = 0;
    for (let k = 0; k < rows.length; k++) {
      const r = rows[k];
      const v = col[r];
      if (v === v) {
        buffer[n] = r;
        sorted[n++] = v;
      }
    }
    // A row's position best first is the number of rows with a strictly better value (tied
    // values share the position of the first of them): the values sorted with their rows, each
    // run of equal values (−0 and 0 are one value, as `===` has them) gets one position.
    const values = sorted.subarray(0, n);
    const owners = buffer.subarray(0, n);
    sortWithOwners(values, owners, 0, n - 1);
    const desc = part.direction === 'desc';
    for (let a = 0; a < n;) {
      let b = a + 1;
      while (b < n && values[b] === values[a]) b++;
      const tieStart = desc ? n - b : a;
      const add = (part.weight * (1 - tieStart / n)) / weightSum;
      for (let k = a; k < b; k++) total[owners[k]] += add;
      a = b;
    }
  }
  return total;
}

/**
 * Sorts values[lo..hi] (inclusive, no NaN) ascending and moves owners[] along. Written out
 * rather than through the typed array's own sort, which cannot carry the owners and takes
 * several times as long on the few hundred values of a ranking.
 */
function sortWithOwners(values: Float64Array, owners: Int32Array, lo: number, hi: number): void {
  while (hi - lo > 12) {
    const m = (lo + hi) >> 1;
    if (values[m] < values[lo]) swapBoth(values, owners, m, lo);
    if (values[hi] < values[lo]) swapBoth(values, owners, hi, lo);
    if (values[hi] < values[m]) swapBoth(values, owners, hi, m);
    const pivot = values[m];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (pivot < values[j]) j--;
      if (i <= j) swapBoth(values, owners, i++, j--);
    }
    // Recurse into the smaller side, loop on the larger (bounded stack).
    if (j - lo < hi - i) {
      sortWithOwners(values, owners, lo, j);
      lo = i;
    } else {
      sortWithOwners(values, owners, i, hi);
      hi = j;
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    const v = values[i];
    const o = owners[i];
    let j = i - 1;
    while (j >= lo && v < values[j]) {
      values[j + 1] = values[j];
      owners[j + 1] = owners[j];
      j--;
    }
    values[j + 1] = v;
    owners[j + 1] = o;
  }
}

function swapBoth(values: Float64Array, owners: Int32Array, i: number, j: number): void {
  const v = values[i];
  values[i] = values[j];
  values[j] = v;
  const o = owners[i];
  owners[i] = owners[j];
  owners[j] = o;
}

/**
 * Rows best first (ties by ticker, then permaticker) with competition ranks (1, 2, 2, 4). With
 * `first`, only the first `first` positions are put in order (a backtest reads its top N of
 * hundreds of passing rows); `orderMore` orders further ones when they are needed.
 */
export function rankRows(parts: readonly RankPart[], p: PreparedUniverse, rows: Int32Array, first = rows.length): Ranked {
  const score = scoreRows(parts, p, rows);
  const ranked: Ranked = { order: Int32Array.from(rows), score, rank: new Float64Array(p.size).fill(NaN), ordered: 0 };
  orderMore(ranked, p, first);
  return ranked;
}

/** Puts the first `upTo` positions of a partial ranking in order (and ranks them). */
export function orderMore(ranked: Ranked, p: PreparedUniverse, upTo: number): void {
  const { order, score, rank } = ranked;
  const end = Math.min(order.length, Math.max(0, Math.ceil(upTo)));
  if (end <= ranked.ordered) return;
  // The rows from `ordered` on all rank below the ordered ones: sorting them among themselves
  // (as far as `end`) gives the same order as sorting everything.
  sortByScore(order, ranked.ordered, order.length - 1, score, p.ticker, p.snapshot.permatickers, end);
  for (let i = ranked.ordered; i < end; i++) {
    const r = order[i];
    rank[r] = i > 0 && score[r] === score[order[i - 1]] ? rank[order[i - 1]] : i + 1;
  }
  ranked.ordered = end;
}

/** Higher score first, then ticker, then permaticker (a total order: permatickers are unique). */
function before(a: number, b: number, score: Float64Array, ticker: readonly string[], perm: Int32Array): boolean {
  if (score[a] !== score[b]) return score[a] > score[b];
  if (ticker[a] !== ticker[b]) return ticker[a] < ticker[b];
  return perm[a] < perm[b];
}

/**
 * Sorts order[lo..hi] (inclusive) with `before`, as far as position `end` (exclusive): parts of
 * the range wholly at or after `end` are partitioned from the rest but left unsorted.
 */
function sortByScore(
  order: Int32Array,
  lo: number,
  hi: number,
  score: Float64Array,
  ticker: readonly string[],
  perm: Int32Array,
  end: number,
): void {
  while (hi - lo > 12) {
    if (lo >= end) return;
    const m = (lo + hi) >> 1;
    // Median of three as the pivot.
    if (before(order[m], order[lo], score, ticker, perm)) swap(order, m, lo);
    if (before(order[hi], order[lo], score, ticker, perm)) swap(order, hi, lo);
    if (before(order[hi], order[m], score, ticker, perm)) swap(order, hi, m);
    const pivot = order[m];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (before(order[i], pivot, score, ticker, perm)) i++;
      while (before(pivot, order[j], score, ticker, perm)) j--;
      if (i <= j) swap(order, i++, j--);
    }
    // Recurse into the smaller side, loop on the larger (bounded stack).
    if (j - lo < hi - i) {
      sortByScore(order, lo, j, score, ticker, perm, end);
      lo = i;
    } else {
      sortByScore(order, i, hi, score, ticker, perm, end);
      hi = j;
    }
  }
  if (lo >= end) return;
  for (let i = lo + 1; i <= hi; i++) {
    const v = order[i];
    let j = i - 1;
    while (j >= lo && before(v, order[j], score, ticker, perm)) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = v;
  }
}

function swap(a: Int32Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}
