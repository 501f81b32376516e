import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { buildSnapshots } from '~/services/metrics/snapshots.server';
import { writeFixtureStore } from '~/services/metrics/testing/fixture-store.server';
import { syntheticUniverse } from '~/services/metrics/testing/synthetic-universe';

const QUIET = { start: () => {}, tick: () => {}, stop: () => {}, log: () => {} };

/**
 * A DuckDB market file of a synthetic universe with its snapshots, written before the suite's
 * tests and removed after them (the screener's API and page suites share this setup).
 */
export function syntheticMarketForSuite(name: string, opts: { securities: number; years: number; seed: number }) {
  const dir = mkdtempSync(path.join(tmpdir(), `quarry-${name}-`));
  const marketDb = path.join(dir, 'market.duckdb');
  const securities = syntheticUniverse(opts);
  beforeAll(async () => {
    await writeFixtureStore(marketDb, securities);
    await buildSnapshots({ marketDb, progress: QUIET });
  });
  afterAll(() => {
    closeMarketReader();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, marketDb, securities };
}
