import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// kill -9 in the middle of an import, then re-run: the store must end exactly as after one
// uninterrupted run, and the killed run must not have changed the published file at all.

const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = path.resolve('app/services/market/importers/testing/run-import.ts');
const DATA = path.resolve('../shared/data');
const FIX = path.resolve('tests/fixtures');

type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs the import in a child; with `killAfterTicks`, SIGKILLs it once that many ticks were printed. */
function runChild(file: string, args: string[], killAfterTicks?: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    // `node --import tsx` keeps the import in this one process: the tsx CLI would run it in a
    // grandchild that a SIGKILL of the CLI does not reach.
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let ticks = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      ticks = (stdout.match(/^tick /gm) ?? []).length;
      if (killAfterTicks !== undefined && ticks >= killAfterTicks && child.exitCode === null) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const snapshotOf = (run: Run) => /snapshot ([0-9a-f]{32})/.exec(run.stdout)?.[1] ?? null;
const sha256 = (file: string) => (existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : 'absent');

const panel = path.join(DATA, 'prices/sp500_stocks_daily_2013-2018_sample.csv');
const companyfacts = path.join(DATA, 'fundamentals/sec/companyfacts');

describe('kill -9 during an import, then re-run', () => {
  it.each([
    ['prices', 'the S&P 500 sample panel', [panel], 15, existsSync(panel)],
    ['sec', 'six real companyfacts files', [companyfacts], 3, existsSync(companyfacts)],
  ] as const)('%s (%s): same final snapshot as an uninterrupted run', async (source, _what, inputs, killAfter, available) => {
    if (!available) {
      console.warn(`Skipping the kill -9 test for ${source}: ${inputs[0]} is absent`);
      return;
    }
    const seed = path.join(FIX, 'prices/YHOO.csv');
    // Reference: seed, then one uninterrupted run.
    const reference = path.join(dir, `${source}-reference.duckdb`);
    expect((await runChild(reference, ['prices', seed])).code).toBe(0);
    const uninterrupted = await runChild(reference, [source, ...inputs]);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);

    // Same seed, then a run killed mid-way.
    const file = path.join(dir, `${source}-killed.duckdb`);
    expect((await runChild(file, ['prices', seed])).code).toBe(0);
    const before = sha256(file);
    // Small batches: ~1,000 rows each, so several transactions have committed inside the work
    // copy before the kill lands mid-run.
    const killed = await runChild(file, [source, ...inputs, '--batch-rows', '1000'], killAfter);
    expect(killed.signal).toBe('SIGKILL');
    expect(snapshotOf(killed)).toBeNull();
    expect(killed.stdout).toMatch(/^tick /m);
    expect(sha256(file)).toBe(before);

    // The re-run finds a stale lock and work file of a dead process and still completes.
    const rerun = await runChild(file, [source, ...inputs, '--batch-rows', '1000']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(snapshotOf(rerun)).toBe(snapshotOf(uninterrupted));
  });
});
