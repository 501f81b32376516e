import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../config.server';
import { closeDb } from '../db/db.server';
import { runDataCli, type CliIo } from './data-cli.server';
import { lineReporter, silentProgress } from './progress.server';

const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), progress: silentProgress };
}

describe('data CLI', () => {
  it('generates a demo universe into --out and reports it in status', async () => {
    const file = path.join(dir, 'cli.duckdb');
    const io = capture();
    expect(await runDataCli(['demo', '--companies', '25', '--years', '2', '--seed', '3', '--out', file], io)).toBe(0);
    const snapshot = /Snapshot ([0-9a-f]{32})/.exec(io.stdout.join('\n'))?.[1];
    expect(snapshot).toBeDefined();
    const status = capture();
    expect(await runDataCli(['status', '--file', file], status)).toBe(0);
    const text = status.stdout.join('\n');
    expect(text).toContain(`Snapshot:     ${snapshot}`);
    expect(text).toMatch(/Securities: +25 \(\d+ delisted, 25 DEMO — fictional\)/);
    expect(text).toMatch(/demo +done/);
  });

  it('keeps a failed import in the store and shows it in status', async () => {
    // The demo store of the test above.
    const file = path.join(dir, 'cli.duckdb');
    const bad = path.join(dir, 'bad.csv');
    writeFileSync(bad, 'date,open,high,low,close,volume\n2020-01-02,1,2,0.5,not-a-price,100\n');
    // The import's job row goes to an app database of its own.
    const previous = { MARKET_DB: process.env.MARKET_DB, DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
    process.env.MARKET_DB = file;
    process.env.DATA_DIR = path.join(dir, 'app-data');
    delete process.env.DATABASE_URL;
    resetConfigForTests();
    try {
      const io = capture();
      expect(await runDataCli(['import', 'prices', bad], io)).toBe(1);
      expect(io.stderr.join('\n')).toContain('Import failed, the store is unchanged');
    } finally {
      await closeDb();
      for (const [k, v] of Object.entries(previous)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetConfigForTests();
    }
    const status = capture();
    expect(await runDataCli(['status', '--file', file], status)).toBe(0);
    const text = status.stdout.join('\n');
    expect(text).toMatch(/prices +failed/);
    expect(text).toMatch(/Latest import errors:\n.*prices +.*bad\.csv:2/);
  });

  it('answers bad usage with exit code 2 and a clear message', async () => {
    for (const [argv, message] of [
      [['demo', '--companies', 'many'], '--companies must be an integer, got "many".'],
      [['demo', '--companies', '0', '--out', path.join(dir, 'x.duckdb')], 'companies must be an integer from 1'],
      [['demo', '--colour', 'red'], 'Unknown option --colour.'],
      [['frobnicate'], 'Unknown command "frobnicate".'],
      [['import', 'nowhere'], 'Unknown source "nowhere".'],
    ] as const) {
      const io = capture();
      expect(await runDataCli([...argv], io)).toBe(2);
      expect(io.stderr.join('\n')).toContain(message);
    }
  });

  it('reports a missing store in status', async () => {
    const io = capture();
    expect(await runDataCli(['status', '--file', path.join(dir, 'none.duckdb')], io)).toBe(1);
    expect(io.stdout.join('\n')).toMatch(/No market data at .*none\.duckdb/);
  });
});

describe('plain progress lines', () => {
  it('prints a line per step of 10 % and a final line with the duration', () => {
    const lines: string[] = [];
    let now = 0;
    const p = lineReporter({ write: (s: string) => lines.push(s.trimEnd()) > 0 }, 25, () => now);
    p.start('prices', 8);
    for (let i = 0; i < 8; i++) p.tick();
    now = 1500;
    p.stop();
    expect(lines).toEqual([
      'prices: starting, 8 to do',
      'prices: 2/8 (25%)',
      'prices: 4/8 (50%)',
      'prices: 6/8 (75%)',
      'prices: 8/8 (100%) done in 1.5 s',
    ]);
  });
});
