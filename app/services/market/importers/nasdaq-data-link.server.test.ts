import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportSummary } from '../store/records';
import { openMarketReader } from '../store/open-store.server';
import { withMarketWriter } from '../store/writer.server';
import { importers } from './index.server';
import { startFakeNasdaq, type FakeNasdaq } from './testing/fake-nasdaq-data-link';
import { lineProgress } from './testing/line-progress';

// Sharadar from Nasdaq Data Link's tables API (a local server speaking its wire format, serving
// the Sharadar fixture tables) must store exactly what the Sharadar CSV importer stores.

const KEY = 'ndl-test-key';
const FIX = path.resolve('tests/fixtures/sharadar');
const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-ndl-'));
let fake: FakeNasdaq;
let n = 0;
let cacheDir = '';
const freshFile = () => path.join(dir, `market-${++n}.duckdb`);

beforeAll(async () => {
  fake = await startFakeNasdaq(0, KEY, FIX);
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  cacheDir = mkdtempSync(path.join(dir, 'cache-'));
  fake.requests.length = 0;
  fake.failures.clear();
});

async function run(file: string, source: string, args: string[], apiKey = KEY): Promise<ImportSummary & { log: string[] }> {
  const progress = lineProgress(() => {});
  const summary = await withMarketWriter(file, {}, (writer) =>
    importers[source].run(args, { writer, progress, env: { nasdaqDataLink: { apiKey, apiUrl: fake.url, exportPollMs: 50 }, cacheDir } }),
  );
  return { ...summary, log: progress.lines };
}

async function count(file: string, table: string): Promise<number> {
  const reader = await openMarketReader(file);
  try {
    const [row] = await reader.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`);
    return row.n;
  } finally {
    reader.close();
  }
}

describe('nasdaq data link importer', () => {
  it('pages through the four tables for a ticker list and stores exactly what the CSV importer stores', async () => {
    const fromCsv = await run(freshFile(), 'sharadar', [FIX]);
    const file = freshFile();
    const online = await run(file, 'nasdaq', ['--tickers', 'AAPL,META,LEH']);
    expect(online.snapshotId).toBe(fromCsv.snapshotId);
    expect(online).toMatchObject({ source: 'sharadar', securities: fromCsv.securities, rows: fromCsv.rows });
    expect(await count(file, 'prices')).toBeGreaterThan(0);
    // More than one page per table: the cursor was followed.
    expect(fake.requests.filter((r) => r.table === 'SEP' && r.cursor !== null).length).toBeGreaterThan(0);
  });

  it('takes whole tables through the bulk export, waiting while the file is being made', async () => {
    const fromCsv = await run(freshFile(), 'sharadar', [FIX]);
    const online = await run(freshFile(), 'nasdaq', ['--all']);
    expect(online.snapshotId).toBe(fromCsv.snapshotId);
    expect(online.log.some((l) => l.startsWith('Waiting: Nasdaq Data Link is preparing the SEP export (creating)'))).toBe(true);
  });

  it('waits out a 429, and a stopped import continues without asking again for the pages it has', async () => {
    fake.failures.set('SEP', [{ status: 429, retryAfter: '1' }]);
    fake.failures.set('SF1', [{ status: 400 }]);
    const file = freshFile();
    await expect(run(file, 'nasdaq', ['--tickers', 'AAPL,META,LEH'])).rejects.toThrow(/HTTP 400/);
    expect(fake.requests.filter((r) => r.table === 'SEP').length).toBeGreaterThan(1);
    fake.requests.length = 0;
    const rerun = await run(file, 'nasdaq', ['--tickers', 'AAPL,META,LEH']);
    expect(rerun.log).toContain('TICKERS: already downloaded by an unfinished run');
    expect(rerun.log).toContain('SEP: already downloaded by an unfinished run');
    expect(fake.requests.every((r) => r.table === 'SF1' || r.table === 'ACTIONS')).toBe(true);
  });

  it('refuses without a key, and with a key the service does not know', async () => {
    await expect(run(freshFile(), 'nasdaq', ['--tickers', 'AAPL'], '')).rejects.toThrow(/set NASDAQ_DATA_LINK_API_KEY/);
    await expect(run(freshFile(), 'nasdaq', ['--tickers', 'AAPL'], 'wrong')).rejects.toThrow(
      /HTTP 400 .*QEAx01 We could not recognize your API key/,
    );
  });
});
