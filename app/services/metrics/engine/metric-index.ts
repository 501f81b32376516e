import { METRIC_IDS } from '../catalogue';

// Row layout of the engine: one Float64Array slot per catalogue metric, in catalogue order.
// `indices` resolves names once at module load and throws on a typo, so a misspelt metric
// fails every test at import instead of silently writing nowhere.

export const N_METRICS = METRIC_IDS.length;

const POSITION = new Map(METRIC_IDS.map((id, i) => [id, i]));

export function metricIndex(id: string): number {
  const i = POSITION.get(id);
  if (i === undefined) throw new Error(`Unknown metric id in engine: ${id}`);
  return i;
}

export function indices<const K extends string>(ids: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const id of ids) out[id] = metricIndex(id);
  return out;
}
