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
export type Ranked = {
  order: Int32Array;
  score: Float64Array;
  rank: Float64Array;
  ordered: number;
  /** Set while `score` holds the ordered rows' scores only: gives every row's (orderMore calls it before going further). */
  scoreAll?: () => Float64Array;
};

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
  // A weight too small for its scores to stay apart (w · (1 − t/n) / w loses them below the
  // normal doubles) orders ties the shortcut would not: the full ranking decides.
  if (parts.length === 1 && parts[0].weight >= 1e-300 && Number.isInteger(first) && first >= 1 && 2 * first <= rows.length) {
    const top = rankFirstByOneMetric(parts[0], p, rows, first);
    if (top) return top;
  }
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
  if (ranked.scoreAll) {
    score.set(ranked.scoreAll());
    ranked.scoreAll = undefined;
  }
  // The rows from `ordered` on all rank below the ordered ones: sorting them among themselves
  // (as far as `end`) gives the same order as sorting everything.
  sortByScore(order, ranked.ordered, order.length - 1, score, p.ticker, p.snapshot.permatickers, end);
  for (let i = ranked.ordered; i < end; i++) {
    const r = order[i];
    rank[r] = i > 0 && score[r] === score[order[i - 1]] ? rank[order[i - 1]] : i + 1;
  }
  ranked.ordered = end;
}

/**
 * Whether row a ranks before row b on one metric (sign −1: descending), ties by ticker, then
 * permaticker. A function of its own, not a closure made per call: a backtest's compute process
 * runs through tsx, whose esbuild (keepNames) names every function held by a constant or an
 * object property as it is made, a defineProperty each time.
 */
function rankedBefore(col: Float64Array, sign: number, ticker: readonly string[], perm: Int32Array, a: number, b: number): boolean {
  const ka = sign * col[a];
  const kb = sign * col[b];
  if (ka !== kb) return ka < kb;
  return ticker[a] !== ticker[b] ? ticker[a] < ticker[b] : perm[a] < perm[b];
}

/**
 * The first `first` positions of a one-metric ranking, with their ranks and scores, without
 * scoring every row: a backtest ranks hundreds of rows on each rebalance date to take its top N.
 * With one metric the order is the metric's order (ties by ticker, then permaticker), so the rows
 * at or better than the N-th best value (with all its ties) are every row that can take one of
 * the first N positions; a row's score needs only the number of rows strictly better, which are
 * among them. The other rows are scored when a reader goes further (`orderMore`). Null when
 * there are fewer rows with a value than asked for, or the N-th value's ties are too many for the
 * shortcut to pay.
 */
function rankFirstByOneMetric(part: RankPart, p: PreparedUniverse, rows: Int32Array, first: number): Ranked | null {
  const col = metricColumn(p.snapshot, part.metric);
  // Keys: smaller is better (negating is exact; −0 and 0 stay one value under < and ===).
  const sign = part.direction === 'desc' ? -1 : 1;
  if (selectionKeys.length < rows.length) selectionKeys = new Float64Array(Math.max(rows.length, 2 * selectionKeys.length));
  const keys = selectionKeys;
  let n = 0;
  for (let k = 0; k < rows.length; k++) {
    const v = col[rows[k]];
    if (v === v) keys[n++] = sign * v;
  }
  if (first >= n) return null;
  const threshold = kthSmallest(keys, n, first - 1);
  const candidates: number[] = [];
  for (let k = 0; k < rows.length; k++) {
    const v = col[rows[k]];
    if (v === v && sign * v <= threshold) candidates.push(rows[k]);
  }
  // Beyond a few hundred, the insertion sort below would cost more than the full ranking.
  if (candidates.length > Math.min(4 * first + 64, 400)) return null;
  const ticker = p.ticker;
  const perm = p.snapshot.permatickers;
  // Insertion sort: a few dozen rows, mostly; a comparator sort costs more in calls than it saves.
  for (let i = 1; i < candidates.length; i++) {
    const r = candidates[i];
    let j = i - 1;
    while (j >= 0 && rankedBefore(col, sign, ticker, perm, r, candidates[j])) {
      candidates[j + 1] = candidates[j];
      j--;
    }
    candidates[j + 1] = r;
  }
  // The three arrays it returns share one buffer: a typed array's allocation each cost more than
  // this ranking's arithmetic.
  const buffer = new ArrayBuffer(16 * p.size + 4 * rows.length);
  const score = new Float64Array(buffer, 0, p.size);
  const rank = new Float64Array(buffer, 8 * p.size, p.size).fill(NaN);
  const order = new Int32Array(buffer, 16 * p.size, rows.length);
  let tieStart = 0;
  for (let i = 0; i < candidates.length; i++) {
    const r = candidates[i];
    if (i > 0 && sign * col[r] !== sign * col[candidates[i - 1]]) tieStart = i;
    // As scoreRows computes it for one part (its weight is the weights' sum).
    score[r] = (part.weight * (1 - tieStart / n)) / part.weight;
    order[i] = r;
    if (i < first) rank[r] = i > 0 && score[r] === score[candidates[i - 1]] ? rank[candidates[i - 1]] : i + 1;
  }
  // The rows below the candidates, in no particular order, as the rest of a partial ranking.
  let at = candidates.length;
  for (let k = 0; k < rows.length; k++) {
    const v = col[rows[k]];
    if (!(v === v && sign * v <= threshold)) order[at++] = rows[k];
  }
  return { order, score, rank, ordered: first, scoreAll: () => scoreRows([part], p, rows) };
}

/** Scratch for the selection's keys (a ranking runs to its end without yielding: one is enough). */
let selectionKeys = new Float64Array(0);

/** The k-th smallest (0-based) of keys[0..n) (no NaN), moving keys about (quickselect). */
function kthSmallest(keys: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const m = (lo + hi) >> 1;
    if (keys[m] < keys[lo]) swapKeys(keys, m, lo);
    if (keys[hi] < keys[lo]) swapKeys(keys, hi, lo);
    if (keys[hi] < keys[m]) swapKeys(keys, hi, m);
    const pivot = keys[m];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (keys[i] < pivot) i++;
      while (pivot < keys[j]) j--;
      if (i <= j) swapKeys(keys, i++, j--);
    }
    // keys[lo..j] ≤ pivot ≤ keys[i..hi], and what lies between equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return keys[k];
  }
  return keys[k];
}

function swapKeys(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
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
