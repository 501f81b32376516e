import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMarketReader, openMarketReader } from '../market/store/open-store.server';
import { iterateSnapshots, listSnapshotDates, loadSnapshot } from '../metrics/snapshots.server';
import { runDataCli, type CliIo } from './data-cli.server';
import { readMarketStatus } from './data-status.server';
import { silentProgress } from './progress.server';

// A store whose snapshots were built before a metric existed (its values and its id missing
// from the record): the status says "rebuild snapshots", pages compute the metric instead of
// reading n/a, and `npm run data -- rebuild-snapshots` makes the store current again.

const NEW_METRIC = 'ret_1m';
const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-rebuild-'));
const file = path.join(dir, 'market.duckdb');
let latestBefore: Float64Array;

function capture(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), progress: silentProgress };
}

async function status() {
  const reader = await openMarketReader(file);
  try {
    return await readMarketStatus(reader);
  } finally {
    reader.close();
  }
}

/** Turns the store back into one built before NEW_METRIC was added to the catalogue. */
async function forgetMetric(): Promise<void> {
  closeMarketReader();
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    await conn.run(`DELETE FROM metric_snapshot_values WHERE metric = '${NEW_METRIC}'`);
    const reader = await conn.runAndReadAll(`SELECT value FROM meta WHERE key = 'metrics_ids'`);
    const ids = (JSON.parse(String(reader.getRows()[0][0])) as string[]).filter((m) => m !== NEW_METRIC);
    await conn.run(`UPDATE meta SET value = $1 WHERE key = 'metrics_ids'`, [JSON.stringify(ids)]);
    await conn.run('CHECKPOINT');
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

beforeAll(async () => {
  expect(await runDataCli(['demo', '--companies', '20', '--years', '2', '--seed', '5', '--out', file], capture())).toBe(0);
  latestBefore = (await loadSnapshot('latest', { marketDb: file, metrics: [NEW_METRIC] })).values[NEW_METRIC];
  expect(latestBefore.some((v) => !Number.isNaN(v))).toBe(true);
});

afterAll(() => {
  closeMarketReader();
  rmSync(dir, { recursive: true, force: true });
});

describe('snapshots built before a metric existed', () => {
  it('are current right after a build', async () => {
    expect((await status()).snapshotFreshness).toEqual({ state: 'current' });
  });

  it('are reported as out of date, by the status and the CLI, with the command that rebuilds them', async () => {
    await forgetMetric();
    const s = await status();
    expect(s.snapshotFreshness.state).toBe('stale');
    expect(s.snapshotFreshness.state === 'stale' && s.snapshotFreshness.missingMetrics).toEqual([NEW_METRIC]);
    const io = capture();
    expect(await runDataCli(['status', '--file', file], io)).toBe(0);
    const text = io.stdout.join('\n');
    expect(text).toContain(`1 metric not stored: ${NEW_METRIC}`);
    expect(text).toContain('rebuild snapshots: npm run data -- rebuild-snapshots');
  });

  it('give the new metric computed values, not n/a, to pages that read one date or many', async () => {
    const latest = await loadSnapshot('latest', { marketDb: file, metrics: [NEW_METRIC] });
    expect(Array.from(latest.values[NEW_METRIC])).toEqual(Array.from(latestBefore));
    const monthEnds = await listSnapshotDates('month_end', { marketDb: file });
    const last = monthEnds[monthEnds.length - 1];
    let seen = 0;
    for await (const snap of iterateSnapshots({ marketDb: file, from: last, to: last, metrics: [NEW_METRIC, 'pe_ttm'] })) {
      seen++;
      expect(snap.values[NEW_METRIC].some((v) => !Number.isNaN(v))).toBe(true);
    }
    expect(seen).toBe(1);
  });

  it('are rebuilt by npm run data -- rebuild-snapshots, after which the metric is stored again', async () => {
    const io = capture();
    expect(await runDataCli(['rebuild-snapshots', '--file', file], io)).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/Metric snapshots of .* rebuilt in [\d.]+ s\./);
    expect((await status()).snapshotFreshness).toEqual({ state: 'current' });
    closeMarketReader();
    const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    const conn = await instance.connect();
    const n = (
      await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM metric_snapshot_values WHERE metric = '${NEW_METRIC}'`)
    ).getRows()[0][0];
    conn.closeSync();
    instance.closeSync();
    expect(Number(n)).toBeGreaterThan(0);
  });

  it('refuses to rebuild a store that does not exist', async () => {
    const io = capture();
    expect(await runDataCli(['rebuild-snapshots', '--file', path.join(dir, 'none.duckdb')], io)).toBe(1);
    expect(io.stderr.join('\n')).toContain('No market data at');
  });
});
