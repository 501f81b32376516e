import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportSummary } from '../store/records';
import { openMarketReader } from '../store/open-store.server';
import { withMarketWriter } from '../store/writer.server';
import { importers } from './index.server';
import { AAPL_SEP_2024_01_08, startFakeNasdaq, type FakeNasdaq } from './testing/fake-nasdaq-data-link';
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

  // Last: it adds rows to the served tables.
  it('--refresh asks for the rows updated since the newest Sharadar day the store holds and merges them: the store equals a fresh import', async () => {
    const file = freshFile();
    await run(file, 'nasdaq', ['--tickers', 'AAPL,META,LEH']);
    // Newest Sharadar day held: AAPL's last filing (datekey 2023-11-03).
    const since = '2023-11-03';
    fake.addRows('SEP', [
      AAPL_SEP_2024_01_08,
      // A ticker the store does not hold: left out.
      {
        ticker: 'ZZZZ',
        date: '2024-01-08',
        open: '1',
        high: '1',
        low: '1',
        close: '1',
        volume: '1',
        closeadj: '1',
        closeunadj: '1',
        lastupdated: '2024-01-08',
      },
    ]);
    fake.addRows('SF1', [
      {
        ticker: 'AAPL',
        dimension: 'ARQ',
        calendardate: '2023-12-31',
        datekey: '2024-02-02',
        reportperiod: '2023-12-30',
        lastupdated: '2024-02-02',
        revenue: '119575000000',
        eps: '2.19',
        assets: '353514000000',
      },
    ]);
    fake.addRows('ACTIONS', [{ date: '2024-02-09', action: 'dividend', ticker: 'AAPL', name: 'Apple Inc', value: '0.24' }]);
    fake.requests.length = 0;
    const refreshed = await run(file, 'nasdaq', ['--refresh']);
    const first = (table: string) => fake.requests.find((r) => r.table === table && r.cursor === null)?.params;
    expect(first('SEP')).toMatchObject({ 'lastupdated.gte': since });
    expect(first('SF1')).toMatchObject({ 'lastupdated.gte': since, dimension: 'ARQ,ARY,ART' });
    expect(first('ACTIONS')).toMatchObject({ 'date.gte': since });
    expect(first('TICKERS')).toMatchObject({ ticker: 'AAPL,LEH,META' });
    // More than one page: the cursor was followed.
    expect(fake.requests.some((r) => r.table === 'SEP' && r.cursor !== null)).toBe(true);
    expect(await count(file, 'prices')).toBe(9);
    expect(await count(file, `facts WHERE filed = DATE '2024-02-02' AND concept = 'revenue' AND value = 119575000000`)).toBe(1);
    expect(await count(file, `corporate_actions WHERE date = DATE '2024-02-09' AND action = 'dividend'`)).toBe(1);
    expect(await count(file, `securities WHERE ticker = 'ZZZZ'`)).toBe(0);
    // The same store as a fresh import of the tables as they are now (the old rows kept, nothing twice).
    const fresh = await run(freshFile(), 'nasdaq', ['--tickers', 'AAPL,META,LEH']);
    expect(refreshed.snapshotId).toBe(fresh.snapshotId);

    // Again: now only the action dated on the newest day comes back, and nothing is added twice.
    fake.requests.length = 0;
    const again = await run(file, 'nasdaq', ['--refresh']);
    expect(first('SEP')).toMatchObject({ 'lastupdated.gte': '2024-02-09' });
    expect(again.snapshotId).toBe(fresh.snapshotId);
    expect(again.rows).toBe(1);
  });

  it('--refresh refuses a store without Sharadar securities', async () => {
    await expect(run(freshFile(), 'nasdaq', ['--refresh'])).rejects.toThrow(/no Sharadar securities/);
  });
});
