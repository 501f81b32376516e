import type { RankPart } from '../model';
import { metricColumn } from './compile-expression';
import type { PreparedUniverse } from './types';

// The ranking of the rows that pass: each metric's percentile score among those rows (1 = best,
// 1/n = worst with a value, 0 = n/a, so n/a sorts last), averaged with the weights. One metric
// therefore orders by that metric; several make a Portfolio123-style composite rank.

export type Ranked = { order: Int32Array; score: Float64Array; rank: Float64Array };

export function scoreRows(parts: readonly RankPart[], p: PreparedUniverse, rows: Int32Array): Float64Array {
  const total = new Float64Array(p.size);
  const weightSum = parts.reduce((s, x) => s + x.weight, 0);
  for (const part of parts) {
    const col = metricColumn(p.snapshot, part.metric);
    const present: number[] = [];
    for (const r of rows) if (!Number.isNaN(col[r])) present.push(r);
    const desc = part.direction === 'desc';
    present.sort((a, b) => (desc ? col[b] - col[a] : col[a] - col[b]));
    const n = present.length;
    let tieStart = 0;
    for (let i = 0; i < n; i++) {
      if (col[present[i]] !== col[present[tieStart]]) tieStart = i;
      total[present[i]] += (part.weight * (1 - tieStart / n)) / weightSum;
    }
  }
  return total;
}

/** Rows best first (ties by ticker, then permaticker) with competition ranks (1, 2, 2, 4). */
export function rankRows(parts: readonly RankPart[], p: PreparedUniverse, rows: Int32Array): Ranked {
  const score = scoreRows(parts, p, rows);
  const order = Int32Array.from(rows);
  const perm = p.snapshot.permatickers;
  order.sort((a, b) => score[b] - score[a] || (p.ticker[a] < p.ticker[b] ? -1 : p.ticker[a] > p.ticker[b] ? 1 : perm[a] - perm[b]));
  const rank = new Float64Array(p.size).fill(NaN);
  for (let i = 0; i < order.length; i++) {
    const r = order[i];
    rank[r] = i > 0 && score[r] === score[order[i - 1]] ? rank[order[i - 1]] : i + 1;
  }
  return { order, score, rank };
}
