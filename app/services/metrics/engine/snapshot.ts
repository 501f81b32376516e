import type { MetricSnapshot } from './types';

// Reading a columnar snapshot from outside the engine: NaN never leaves, missing is null.

export function toNullable(v: number | undefined): number | null {
  return v === undefined || Number.isNaN(v) ? null : v;
}

/** Row of a permaticker (binary search over the ascending permatickers), or -1. */
export function rowOf(snapshot: MetricSnapshot, permaticker: number): number {
  const p = snapshot.permatickers;
  let lo = 0;
  let hi = p.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (p[mid] === permaticker) return mid;
    if (p[mid] < permaticker) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export function metricValue(snapshot: MetricSnapshot, permaticker: number, metricId: string): number | null {
  const r = rowOf(snapshot, permaticker);
  const col = snapshot.values[metricId];
  if (r < 0 || !col) return null;
  return toNullable(col[r]);
}
