// Percentile positions of a metric within groups (the universe, a sector or an industry):
// `roe in top 20% of sector` passes when fewer than 20% of the sector's rows with a value are
// strictly better. Ties share a position (the best of the tied), so tied rows pass or fail
// together; rows without a value have no position and never pass.

export type GroupPositions = {
  /** Rows strictly better in the row's group (NaN when the row has no value or no group). */
  better: Float64Array;
  /** Rows with a value in the row's group (0 when none). */
  groupSize: Int32Array;
};

/**
 * @param rows   the rows that take part (the universe), any order
 * @param values the metric column
 * @param group  group code per row (-1 = no group: excluded), or null for one group
 * @param higherIsBetter true: "top" means the largest values
 */
export function groupPositions(
  size: number,
  rows: Int32Array,
  values: Float64Array,
  group: Int32Array | null,
  higherIsBetter: boolean,
): GroupPositions {
  const better = new Float64Array(size).fill(NaN);
  const groupSize = new Int32Array(size);
  // Bucket the values by group into one typed array (a segment per group), sort each segment
  // natively, then place every row by binary search: no comparator closures on the hot path.
  let groups = 1;
  if (group !== null) for (const r of rows) if (group[r] >= groups) groups = group[r] + 1;
  const counts = new Int32Array(groups + 1);
  for (const r of rows) {
    const g = group === null ? 0 : group[r];
    if (g >= 0 && values[r] === values[r]) counts[g + 1]++;
  }
  for (let g = 0; g < groups; g++) counts[g + 1] += counts[g];
  const sorted = new Float64Array(counts[groups]);
  const fill = counts.slice(0, groups);
  for (const r of rows) {
    const g = group === null ? 0 : group[r];
    if (g >= 0 && values[r] === values[r]) sorted[fill[g]++] = values[r];
  }
  for (let g = 0; g < groups; g++) sorted.subarray(counts[g], counts[g + 1]).sort();
  for (const r of rows) {
    const g = group === null ? 0 : group[r];
    const v = values[r];
    if (g < 0 || v !== v) continue;
    const lo = counts[g];
    const hi = counts[g + 1];
    // First index with sorted[i] >= v, and first with sorted[i] > v.
    let a = lo;
    let b = hi;
    while (a < b) {
      const m = (a + b) >> 1;
      if (sorted[m] < v) a = m + 1;
      else b = m;
    }
    const lower = a;
    b = hi;
    while (a < b) {
      const m = (a + b) >> 1;
      if (sorted[m] <= v) a = m + 1;
      else b = m;
    }
    better[r] = higherIsBetter ? hi - a : lower - lo;
    groupSize[r] = hi - lo;
  }
  return { better, groupSize };
}

/** Passes when the row is within the best `percent` of its group. */
export function inTopPercent(better: number, groupSize: number, percent: number): boolean {
  return better === better && groupSize > 0 && better < (percent / 100) * groupSize;
}

/**
 * The same pass/fail as `inTopPercent(groupPositions(...))`, as one cut value per group: a row
 * passes when it has a value and a group and its value is at or beyond its group's cut (NaN = no
 * row of the group passes). Fewer than p% of the n values are strictly better than v exactly when
 * v is at least as good as the J-th best value, J = ⌈p/100 · n⌉ − 1, so each cut is one order
 * statistic (a selection, no sort) and the test is one comparison per row.
 */
export function groupCuts(
  rows: Int32Array,
  values: Float64Array,
  group: Int32Array | null,
  higherIsBetter: boolean,
  percent: number,
): Float64Array {
  let groups = 1;
  if (group !== null) for (const r of rows) if (group[r] >= groups) groups = group[r] + 1;
  const counts = new Int32Array(groups + 1);
  let bucketed: Float64Array;
  if (group === null) {
    bucketed = new Float64Array(rows.length);
    let n = 0;
    for (const r of rows) if (values[r] === values[r]) bucketed[n++] = values[r];
    counts[1] = n;
  } else {
    for (const r of rows) if (group[r] >= 0 && values[r] === values[r]) counts[group[r] + 1]++;
    for (let g = 0; g < groups; g++) counts[g + 1] += counts[g];
    bucketed = new Float64Array(counts[groups]);
    const fill = counts.slice(0, groups);
    for (const r of rows) if (group[r] >= 0 && values[r] === values[r]) bucketed[fill[group[r]]++] = values[r];
  }
  const cuts = new Float64Array(groups).fill(NaN);
  for (let g = 0; g < groups; g++) {
    const lo = counts[g];
    const n = counts[g + 1] - lo;
    const q = (percent / 100) * n;
    if (n === 0 || !(q > 0)) continue;
    const j = Math.min(Math.ceil(q) - 1, n - 1);
    cuts[g] = select(bucketed, lo, lo + n, higherIsBetter ? lo + n - 1 - j : lo + j);
  }
  return cuts;
}

/** Passes `groupCuts`' test: the row's value is at or beyond its group's cut. */
export function beyondCut(v: number, g: number, cuts: Float64Array, higherIsBetter: boolean): boolean {
  if (g < 0) return false;
  return higherIsBetter ? v >= cuts[g] : v <= cuts[g];
}

/**
 * Moves a[lo..hi) so that a[k] holds the value an ascending sort would put there; returns it.
 * Floyd–Rivest selection: a recursive pass on a small sample brings the partition close to k.
 */
function select(a: Float64Array, lo: number, hi: number, k: number): number {
  let left = lo;
  let right = hi - 1;
  while (right > left) {
    if (right - left > 600) {
      const n = right - left + 1;
      const i = k - left + 1;
      const z = Math.log(n);
      const s = 0.5 * Math.exp((2 * z) / 3);
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (i - n / 2 < 0 ? -1 : 1);
      select(a, Math.max(left, Math.floor(k - (i * s) / n + sd)), Math.min(right, Math.floor(k + ((n - i) * s) / n + sd)) + 1, k);
    }
    const t = a[k];
    let i = left;
    let j = right;
    swap(a, left, k);
    if (a[right] > t) swap(a, right, left);
    while (i < j) {
      swap(a, i, j);
      i++;
      j--;
      while (a[i] < t) i++;
      while (a[j] > t) j--;
    }
    if (a[left] === t) swap(a, left, j);
    else {
      j++;
      swap(a, right, j);
    }
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
  return a[k];
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** `beyondCut` over many rows: the passing ones written to `out` (may be `rows`); returns their count. */
export function keepBeyondCut(
  values: Float64Array,
  group: Int32Array | null,
  cuts: Float64Array,
  higherIsBetter: boolean,
  rows: Int32Array,
  out: Int32Array,
): number {
  let k = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (beyondCut(values[r], group === null ? 0 : group[r], cuts, higherIsBetter)) out[k++] = r;
  }
  return k;
}
