import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../config.server';
import { cachedColumnBytes, cachedColumns } from './column-cache.server';

// A process's column caches: built once per name, shared by concurrent readers, and counted in
// bytes (what a warm backtest process keeps beyond its recycling limit).

let dir: string;
let saved: string | undefined;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-column-cache-'));
  saved = process.env.DATA_DIR;
  process.env.DATA_DIR = dir;
  resetConfigForTests();
});

afterAll(() => {
  if (saved === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = saved;
  resetConfigForTests();
  rmSync(dir, { recursive: true, force: true });
});

describe('column cache', () => {
  it('builds a set once for concurrent readers and counts the bytes it keeps', async () => {
    const file = path.join(dir, 'market.duckdb');
    writeFileSync(file, 'a store');
    const before = cachedColumnBytes();
    let builds = 0;
    const build = async () => {
      builds++;
      return { days: new Int32Array(1000), values: new Float64Array(500) };
    };
    const [a, b] = await Promise.all([cachedColumns(file, 'test-set', build), cachedColumns(file, 'test-set', build)]);
    expect(builds).toBe(1);
    expect(a).toBe(b);
    expect(Array.from(a.days.subarray(0, 3))).toEqual([0, 0, 0]);
    expect(cachedColumnBytes() - before).toBe(4000 + 4000);
    // A new version of the store leaves the old sets behind: they no longer count.
    writeFileSync(file, 'another store, longer');
    await cachedColumns(file, 'other-set', async () => ({ x: new Float64Array(10) }));
    expect(cachedColumnBytes()).toBe(80);
  });
});
