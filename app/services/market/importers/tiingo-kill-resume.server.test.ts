import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTiingo, weekdayBars, type FakeTiingo } from './testing/fake-tiingo';

// kill -9 in the middle of a Tiingo import, then the same import again: it asks Tiingo only for
// the tickers the killed run had not fetched yet, and ends with the same store as one clean run.

const KEY = 'kill-test-key';
const SCRIPT = path.resolve('app/services/market/importers/testing/run-import.ts');
const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-tiingo-kill-'));
const TICKERS = ['AAA', 'BBB', 'CCC', 'DDD', 'EEE', 'FFF'];
let fake: FakeTiingo;

beforeAll(async () => {
  fake = await startFakeTiingo(0, KEY);
  TICKERS.forEach((t, i) => fake.bars.set(t, weekdayBars('2023-01-02', 250, 10 + i)));
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

function runChild(file: string, cacheDir: string, killAfterTicks?: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, file, 'tiingo', '--tickers', TICKERS.join(',')], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TIINGO_API_KEY: KEY, TIINGO_API_URL: fake.url, PROVIDER_CACHE_DIR: cacheDir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const ticks = (stdout.match(/^tick /gm) ?? []).length;
      if (killAfterTicks !== undefined && ticks >= killAfterTicks && child.exitCode === null) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const snapshotOf = (run: Run) => /snapshot ([0-9a-f]{32})/.exec(run.stdout)?.[1] ?? null;

describe('kill -9 during a Tiingo import', () => {
  it('continues without fetching again what it has, to the same snapshot as an uninterrupted run', async () => {
    const clean = await runChild(path.join(dir, 'clean.duckdb'), path.join(dir, 'cache-clean'));
    expect(clean.code, clean.stderr).toBe(0);

    const file = path.join(dir, 'killed.duckdb');
    const cache = path.join(dir, 'cache-killed');
    fake.requests.length = 0;
    const killed = await runChild(file, cache, 2);
    expect(killed.signal).toBe('SIGKILL');
    expect(snapshotOf(killed)).toBeNull();
    const fetchedBeforeKill = new Set(fake.requests.map((r) => r.ticker));
    expect(fetchedBeforeKill.size).toBeGreaterThanOrEqual(2);
    expect(fetchedBeforeKill.size).toBeLessThan(TICKERS.length);

    fake.requests.length = 0;
    const rerun = await runChild(file, cache);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain('Continuing an unfinished run');
    const fetchedAgain = fake.requests.map((r) => r.ticker);
    // At most the ticker in flight when the kill landed is asked for twice.
    expect(fetchedAgain.filter((t) => fetchedBeforeKill.has(t)).length).toBeLessThanOrEqual(1);
    expect(new Set([...fetchedBeforeKill, ...fetchedAgain])).toEqual(new Set(TICKERS));
    expect(snapshotOf(rerun)).toBe(snapshotOf(clean));
  });
});
