import { METRIC_IDS } from './catalogue';
import { METRICS_ENGINE_VERSION } from './snapshot-schema';

// What stored snapshots were built by: the metrics engine's version and the catalogue's metric
// ids, recorded in the store's meta table with every build. When either differs from this code,
// stored values are not what the code would compute (another engine) or lack a metric (one added
// since): readers compute those days instead, and the data status says "rebuild snapshots".

const ENGINE_KEY = 'metrics_engine_version';
const METRICS_KEY = 'metrics_ids';

export const REBUILD_SNAPSHOTS_COMMAND = 'npm run data -- rebuild-snapshots';

/** The meta rows a build records (key, value). */
export function snapshotMetaRows(): [string, string][] {
  return [
    [ENGINE_KEY, String(METRICS_ENGINE_VERSION)],
    [METRICS_KEY, JSON.stringify(METRIC_IDS)],
  ];
}

/** Reads the build's record from the meta table (any key order, missing keys null). */
export const SNAPSHOT_META_SQL = `SELECT key, value FROM meta WHERE key IN ('${ENGINE_KEY}', '${METRICS_KEY}')`;

export type SnapshotMeta = { engineVersion: string | null; metricIds: string[] | null };

export function parseSnapshotMeta(rows: readonly { key: string; value: string | null }[]): SnapshotMeta {
  const value = (key: string) => rows.find((r) => r.key === key)?.value ?? null;
  let metricIds: string[] | null = null;
  try {
    const parsed: unknown = JSON.parse(value(METRICS_KEY) ?? 'null');
    if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string')) metricIds = parsed;
  } catch {
    metricIds = null;
  }
  return { engineVersion: value(ENGINE_KEY), metricIds };
}

/** Stored values of these metrics are what this code computes. */
export function storedSnapshotsServe(meta: SnapshotMeta, metrics: readonly string[]): boolean {
  if (meta.engineVersion !== String(METRICS_ENGINE_VERSION) || meta.metricIds === null) return false;
  const stored = new Set(meta.metricIds);
  return metrics.every((m) => stored.has(m));
}

export type SnapshotFreshness =
  | { state: 'none' }
  | { state: 'current' }
  | {
      state: 'stale';
      storedEngineVersion: string | null;
      engineVersion: string;
      /** Catalogue metrics the stored snapshots lack (computed on each read until a rebuild). */
      missingMetrics: string[];
      /** Stored metrics the catalogue no longer has (ignored). */
      droppedMetrics: string[];
      message: string;
    };

/** Whether the stored snapshots match this code, and what to do when they do not. */
export function snapshotFreshness(meta: SnapshotMeta, snapshotDates: number): SnapshotFreshness {
  if (snapshotDates === 0) return { state: 'none' };
  const engineVersion = String(METRICS_ENGINE_VERSION);
  const stored = new Set(meta.metricIds ?? []);
  const current = new Set<string>(METRIC_IDS);
  const missingMetrics = METRIC_IDS.filter((m) => !stored.has(m));
  const droppedMetrics = [...stored].filter((m) => !current.has(m));
  if (meta.engineVersion === engineVersion && meta.metricIds !== null && missingMetrics.length === 0 && droppedMetrics.length === 0)
    return { state: 'current' };
  const reasons: string[] = [];
  if (meta.engineVersion !== engineVersion)
    reasons.push(`built by metrics engine ${meta.engineVersion ?? '(unrecorded)'}, this code is version ${engineVersion}`);
  if (meta.metricIds === null) reasons.push('their metrics are not recorded');
  else {
    if (missingMetrics.length > 0)
      reasons.push(`${missingMetrics.length} metric${missingMetrics.length === 1 ? '' : 's'} not stored: ${listed(missingMetrics)}`);
    if (droppedMetrics.length > 0)
      reasons.push(
        `${droppedMetrics.length} stored metric${droppedMetrics.length === 1 ? '' : 's'} no longer in the catalogue: ${listed(droppedMetrics)}`,
      );
  }
  return {
    state: 'stale',
    storedEngineVersion: meta.engineVersion,
    engineVersion,
    missingMetrics,
    droppedMetrics,
    message: `Stored snapshots are out of date (${reasons.join('; ')}). Pages compute those values on each request until you rebuild snapshots: ${REBUILD_SNAPSHOTS_COMMAND}.`,
  };
}

function listed(ids: readonly string[]): string {
  return ids.length <= 5 ? ids.join(', ') : `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more`;
}
