import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMarketReader } from '../market/store/open-store.server';
import { ensureDemoData, loadDemoUniverse } from './load-demo.server';

const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const small = { companies: 40, years: 2 };

describe('demo loader', () => {
  it('gives the same snapshot id for the same seed and a different one for another seed', async () => {
    const a = await loadDemoUniverse(path.join(dir, 'a.duckdb'), { ...small, seed: 9 });
    const b = await loadDemoUniverse(path.join(dir, 'b.duckdb'), { ...small, seed: 9 });
    const c = await loadDemoUniverse(path.join(dir, 'c.duckdb'), { ...small, seed: 10 });
    expect(a.snapshotId).toMatch(/^[0-9a-f]{32}$/);
    expect(b.snapshotId).toBe(a.snapshotId);
    expect(c.snapshotId).not.toBe(a.snapshotId);

    const reader = await openMarketReader(a.file);
    const [counts] = await reader.all<{ securities: number; prices: number; facts: number; demo: number; snapshot: string }>(`
      SELECT (SELECT count(*) FROM securities)::INTEGER AS securities,
             (SELECT count(*) FROM prices)::INTEGER AS prices,
             (SELECT count(*) FROM facts)::INTEGER AS facts,
             (SELECT count(*) FROM securities WHERE is_demo AND exchange LIKE 'DEMO-%')::INTEGER AS demo,
             (SELECT value FROM meta WHERE key = 'snapshot_id') AS snapshot`);
    reader.close();
    expect(counts).toEqual({ securities: 40, prices: a.prices, facts: a.facts, demo: 40, snapshot: a.snapshotId });
  });

  it('replaces an existing store rather than mixing universes', async () => {
    const file = path.join(dir, 'replace.duckdb');
    await loadDemoUniverse(file, { ...small, seed: 1 });
    const second = await loadDemoUniverse(file, { companies: 10, years: 1, seed: 2 });
    const reader = await openMarketReader(file);
    const [row] = await reader.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM securities`);
    reader.close();
    expect(row.n).toBe(10);
    expect(second.companies).toBe(10);
  });

  it('ensureDemoData builds once even when two callers start together, leaving no temp files', async () => {
    const file = path.join(dir, 'ensure', 'market.duckdb');
    const demo = { companies: 30, years: 2, seed: 5 };
    const [first, second] = await Promise.all([ensureDemoData({ file, demo }), ensureDemoData({ file, demo })]);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(path.dirname(file)).sort()).toEqual(['market.duckdb']);
    const third = await ensureDemoData({ file, demo });
    expect(third.created).toBe(false);
  });
});
