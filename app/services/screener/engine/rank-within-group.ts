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
  const members: number[] = [];
  for (const r of rows) if (!Number.isNaN(values[r]) && (group === null || group[r] >= 0)) members.push(r);
  const g = (r: number) => (group === null ? 0 : group[r]);
  // Sorted by group, then best first.
  members.sort((a, b) => g(a) - g(b) || (higherIsBetter ? values[b] - values[a] : values[a] - values[b]));
  let start = 0;
  while (start < members.length) {
    let end = start;
    const code = g(members[start]);
    while (end < members.length && g(members[end]) === code) end++;
    const n = end - start;
    let tieStart = start;
    for (let i = start; i < end; i++) {
      if (values[members[i]] !== values[members[tieStart]]) tieStart = i;
      better[members[i]] = tieStart - start;
      groupSize[members[i]] = n;
    }
    start = end;
  }
  return { better, groupSize };
}

/** Passes when the row is within the best `percent` of its group. */
export function inTopPercent(better: number, groupSize: number, percent: number): boolean {
  return better === better && groupSize > 0 && better < (percent / 100) * groupSize;
}
