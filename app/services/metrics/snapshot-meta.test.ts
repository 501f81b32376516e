import { describe, expect, it } from 'vitest';
import { METRIC_IDS } from './catalogue';
import { parseSnapshotMeta, snapshotFreshness, snapshotMetaRows, storedSnapshotsServe } from './snapshot-meta';
import { METRICS_ENGINE_VERSION } from './snapshot-schema';

// Stored snapshots record what built them; the app compares that with its own code.

const current = parseSnapshotMeta(snapshotMetaRows().map(([key, value]) => ({ key, value })));
const withoutFirst = { ...current, metricIds: METRIC_IDS.slice(1) };

describe('snapshot metadata', () => {
  it('round-trips what a build records', () => {
    expect(current).toEqual({ engineVersion: String(METRICS_ENGINE_VERSION), metricIds: [...METRIC_IDS] });
    expect(snapshotFreshness(current, 12)).toEqual({ state: 'current' });
    expect(snapshotFreshness(current, 0)).toEqual({ state: 'none' });
    expect(storedSnapshotsServe(current, ['pe_ttm', 'ret_12m'])).toBe(true);
  });

  it('asks for a rebuild when a metric was added since the build, and never serves it from the store', () => {
    const f = snapshotFreshness(withoutFirst, 12);
    expect(f.state).toBe('stale');
    if (f.state !== 'stale') return;
    expect(f.missingMetrics).toEqual([METRIC_IDS[0]]);
    expect(f.message).toContain(`1 metric not stored: ${METRIC_IDS[0]}`);
    expect(f.message).toContain('rebuild snapshots: npm run data -- rebuild-snapshots');
    expect(storedSnapshotsServe(withoutFirst, [METRIC_IDS[0]])).toBe(false);
    expect(storedSnapshotsServe(withoutFirst, [METRIC_IDS[1]])).toBe(true);
  });

  it('asks for a rebuild after a new metrics engine, a dropped metric or a store that recorded nothing', () => {
    const older = snapshotFreshness({ ...current, engineVersion: '1' }, 3);
    expect(older.state === 'stale' && older.message).toContain(`built by metrics engine 1, this code is version ${METRICS_ENGINE_VERSION}`);
    expect(storedSnapshotsServe({ ...current, engineVersion: '1' }, ['pe_ttm'])).toBe(false);
    const dropped = snapshotFreshness({ ...current, metricIds: [...METRIC_IDS, 'old_metric'] }, 3);
    expect(dropped.state === 'stale' && dropped.droppedMetrics).toEqual(['old_metric']);
    const unrecorded = parseSnapshotMeta([]);
    expect(unrecorded).toEqual({ engineVersion: null, metricIds: null });
    const f = snapshotFreshness(unrecorded, 3);
    expect(f.state === 'stale' && f.message).toMatch(/metrics engine \(unrecorded\).*their metrics are not recorded/);
    expect(parseSnapshotMeta([{ key: 'metrics_ids', value: '{not json' }]).metricIds).toBeNull();
  });
});
