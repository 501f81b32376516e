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
export function groupPositions(size: number, rows: Int32Array, values: Float64Array, group: Int32Array | null, higherIsBetter: boolean): GroupPositions {
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
