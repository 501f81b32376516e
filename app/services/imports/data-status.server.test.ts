import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketStatus, readMarketStatus } from './data-status.server';
import { recordFailedImport } from '../market/store/import-failures.server';
import { DuckDBInstance } from '@duckdb/node-api';
import { DomainError } from '../http/errors';
import { readMarket } from '../market/store/read.server';
import { closeMarketReader, MARKET_DATA_UNAVAILABLE, openMarketReader } from '../market/store/open-store.server';
import { writeMarketFixture } from '../market/store/test-fixture.server';

// The market store status read by the data CLI and the admin page, on a real DuckDB file.

const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-data-status-'));
const file = path.join(dir, 'market.duckdb');

beforeAll(async () => {
  await writeMarketFixture(file);
});
afterAll(() => {
  closeMarketReader();
  rmSync(dir, { recursive: true, force: true });
});

async function statusOf(f: string) {
  const reader = await openMarketReader(f);
  try {
    return await readMarketStatus(reader);
  } finally {
    reader.close();
  }
}

describe('market data status', () => {
  it('counts the store and names the last import of each source', async () => {
    const s = await statusOf(file);
    expect(s.snapshotId).toMatch(/^[0-9a-f]{32}$/);
    expect(s).toMatchObject({
      securities: 8,
      listed: 4,
      delisted: 4,
      demo: 1,
      snapshotDates: 0,
      latestSnapshotDate: null,
      latestErrors: [],
    });
    expect(Number(s.priceRows)).toBeGreaterThan(0);
    expect(Number(s.facts)).toBeGreaterThan(0);
    expect(s.firstPriceDate).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(s.lastImportPerSource.map((r) => [r.source, r.status])).toEqual([['fixture', 'done']]);
  });

  it('records a failed import as a run of its own, leaving the data and snapshot id as they were', async () => {
    const before = await statusOf(file);
    expect(
      await recordFailedImport(file, {
        source: 'prices',
        startedAt: '2030-01-01T00:00:00.000Z',
        error: 'bad.csv:2: close is not a number',
      }),
    ).toBe(true);
    expect(await recordFailedImport(file, { source: 'sec', startedAt: '2030-01-02T00:00:00.000Z', error: 'x'.repeat(5000) })).toBe(true);
    const after = await statusOf(file);
    expect(after.snapshotId).toBe(before.snapshotId);
    expect(after.priceRows).toBe(before.priceRows);
    expect(after.securities).toBe(before.securities);
    expect(after.lastImportPerSource.map((r) => [r.source, r.status])).toEqual([
      ['fixture', 'done'],
      ['prices', 'failed'],
      ['sec', 'failed'],
    ]);
    expect(after.latestErrors.map((r) => r.source)).toEqual(['sec', 'prices']);
    expect(after.latestErrors[1].detail).toBe('bad.csv:2: close is not a number');
    expect(after.latestErrors[0].detail).toHaveLength(2000);
    expect(after.recentRuns[0]).toMatchObject({ source: 'sec', status: 'failed' });
  });

  it("the app's status is the published store's: a failure recorded after a read shows in the next", async () => {
    const before = await marketStatus(file);
    await recordFailedImport(file, { source: 'tiingo', startedAt: '2030-02-01T00:00:00.000Z', error: 'HTTP 500' });
    const after = await marketStatus(file);
    expect(before.state === 'ok' && before.status.latestErrors.map((r) => r.source)).not.toContain('tiingo');
    expect(after.state === 'ok' && after.status.latestErrors.map((r) => [r.source, r.detail])[0]).toEqual(['tiingo', 'HTTP 500']);
  });

  it('does not create a store just to record a failure', async () => {
    const none = path.join(dir, 'none.duckdb');
    expect(await recordFailedImport(none, { source: 'prices', startedAt: new Date().toISOString(), error: 'x' })).toBe(false);
    expect(existsSync(none)).toBe(false);
  });

  it('tells the app when there is no market data at all', async () => {
    const none = path.join(dir, 'missing.duckdb');
    const r = await marketStatus(none);
    expect(r).toEqual({ state: 'missing', reason: 'the file does not exist' });
    const ok = await marketStatus(file);
    expect(ok.state === 'ok' && ok.status.securities).toBe(8);
  });

  it('a file that is not a DuckDB database, or one without the market schema: unavailable, and answers never name the file', async () => {
    const garbage = path.join(dir, 'garbage.duckdb');
    writeFileSync(garbage, Buffer.alloc(64 * 1024, 0x5a));
    const foreign = path.join(dir, 'foreign.duckdb');
    const instance = await DuckDBInstance.create(foreign);
    const connection = await instance.connect();
    await connection.run('CREATE TABLE notes (id INTEGER)');
    connection.closeSync();
    instance.closeSync();
    for (const [f, reason] of [
      [garbage, /^it cannot be opened/],
      [foreign, /^it is not a market store \(no meta, securities, prices table\)$/],
      [path.join(dir, 'missing.duckdb'), /^the file does not exist$/],
    ] as const) {
      const r = await marketStatus(f);
      expect(r.state).toBe('missing');
      if (r.state === 'missing') {
        expect(r.reason).toMatch(reason);
        expect(r.reason).not.toContain(dir);
      }
      const refused = await readMarket({ file: f }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DomainError);
      expect((refused as DomainError).status).toBe(503);
      expect((refused as DomainError).detail).toBe(MARKET_DATA_UNAVAILABLE);
      expect(MARKET_DATA_UNAVAILABLE).toMatch(/^Market data unavailable/);
      expect(MARKET_DATA_UNAVAILABLE).not.toContain(dir);
    }
  });
});
