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

export function metricColumn(snapshot: MetricSnapshot, metricId: string): (number | null)[] {
  const col = snapshot.values[metricId];
  if (!col) return [];
  return Array.from(col, (v) => toNullable(v));
}

/** One security's metrics as a plain object (for company pages and JSON). */
export function securityMetrics(
  snapshot: MetricSnapshot,
  permaticker: number,
  metricIds?: readonly string[],
): Record<string, number | null> | null {
  const r = rowOf(snapshot, permaticker);
  if (r < 0) return null;
  const out: Record<string, number | null> = {};
  for (const id of metricIds ?? Object.keys(snapshot.values)) out[id] = toNullable(snapshot.values[id]?.[r]);
  return out;
}

/** A snapshot restricted to some metrics (what backtests keep in memory). */
export function pickMetrics(snapshot: MetricSnapshot, metricIds: readonly string[]): MetricSnapshot {
  const values: Record<string, Float64Array> = {};
  for (const id of metricIds) if (snapshot.values[id]) values[id] = snapshot.values[id];
  return { ...snapshot, values };
}
