import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportSummary, TiingoSettings } from '../store/records';
import { openMarketReader } from '../store/open-store.server';
import { withMarketWriter } from '../store/writer.server';
import { importers } from './index.server';
import { startFakeTiingo, weekdayBars, type FakeTiingo } from './testing/fake-tiingo';
import { lineProgress } from './testing/line-progress';

// The Tiingo importer against a local server speaking Tiingo's end-of-day wire format, into a
// real DuckDB store through the real writer.

const KEY = 'test-tiingo-key';
const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-tiingo-'));
let fake: FakeTiingo;
let n = 0;
let cacheDir = '';
const freshFile = () => path.join(dir, `market-${++n}.duckdb`);

beforeAll(async () => {
  fake = await startFakeTiingo(0, KEY);
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  cacheDir = mkdtempSync(path.join(dir, 'cache-'));
  fake.bars.clear();
  fake.failures.clear();
  fake.requests.length = 0;
});

function settings(): TiingoSettings {
  return { apiKey: KEY, apiUrl: fake.url, tickersUrl: `${fake.url}/docs/tiingo/daily/supported_tickers.zip`, perHour: 500, perDay: 1000 };
}

async function runTiingo(file: string, args: string[]): Promise<ImportSummary & { log: string[] }> {
  const progress = lineProgress(() => {});
  const summary = await withMarketWriter(file, {}, (writer) =>
    importers.tiingo.run(args, { writer, progress, env: { tiingo: settings(), cacheDir } }),
  );
  return { ...summary, log: progress.lines };
}

async function query<T = Record<string, unknown>>(file: string, sql: string): Promise<T[]> {
  const reader = await openMarketReader(file);
  try {
    return await reader.all<T>(sql);
  } finally {
    reader.close();
  }
}

const pricesOf = (file: string, ticker: string) =>
  query<{ date: string; close: number; close_unadj: number; volume: number }>(
    file,
    `SELECT strftime(p.date, '%Y-%m-%d') AS date, p.close, p.close_unadj, p.volume FROM prices p
       JOIN securities s USING (permaticker) WHERE s.ticker = '${ticker}' ORDER BY p.date`,
  );
const actionsOf = (file: string) =>
  query<{ ticker: string; date: string; action: string; value: number; source: string }>(
    file,
    `SELECT s.ticker, strftime(a.date, '%Y-%m-%d') AS date, a.action, a.value, a.source FROM corporate_actions a
       JOIN securities s USING (permaticker) ORDER BY s.ticker, a.date, a.action`,
  );

describe('tiingo importer', () => {
  it('imports two tickers as traded, with their split and dividend, sending the key in the Authorization header', async () => {
    const aaa = weekdayBars('2024-01-02', 5, 100);
    aaa[2] = { ...aaa[2], close: 51, open: 50.5, high: 52, low: 50, splitFactor: 2 };
    aaa[3] = { ...aaa[3], close: 52, open: 51.5, high: 53, low: 51, divCash: 0.25 };
    aaa[4] = { ...aaa[4], close: 53, open: 52.5, high: 54, low: 52 };
    fake.bars.set('AAA', aaa);
    fake.bars.set('BRK-B', weekdayBars('2024-01-02', 5, 400));
    const file = freshFile();
    const summary = await runTiingo(file, ['--tickers', 'aaa,BRK.B,NOPE']);
    expect(summary).toMatchObject({ source: 'tiingo', securities: 2, rows: 10 });
    expect(summary.warnings).toEqual(['NOPE: Tiingo does not know this ticker (HTTP 404); skipped']);
    expect(fake.requests.every((r) => r.auth === `Token ${KEY}`)).toBe(true);
    expect(fake.requests.map((r) => r.ticker).sort()).toEqual(['AAA', 'BRK-B', 'NOPE']);

    const prices = await pricesOf(file, 'AAA');
    // Before the 2-for-1 split the stored close is halved; close_unadj is what traded.
    expect(prices.map((p) => [p.date, p.close, p.close_unadj])).toEqual([
      ['2024-01-02', 50, 100],
      ['2024-01-03', 50.5, 101],
      ['2024-01-04', 51, 51],
      ['2024-01-05', 52, 52],
      ['2024-01-08', 53, 53],
    ]);
    expect(prices[0].volume).toBe(2_000_000);
    expect(await actionsOf(file)).toEqual([
      { ticker: 'AAA', date: '2024-01-04', action: 'split', value: 2, source: 'tiingo' },
      { ticker: 'AAA', date: '2024-01-05', action: 'dividend', value: 0.25, source: 'tiingo' },
    ]);
    expect((await pricesOf(file, 'BRK.B')).length).toBe(5);
  });

  it('waits out a 429 for its Retry-After, retries a 5xx and a cut-off body, and says it is waiting', async () => {
    fake.bars.set('AAA', weekdayBars('2024-01-02', 3, 10));
    fake.failures.set('AAA', [{ status: 429, retryAfter: '1' }, { status: 503 }, { truncated: true }]);
    const summary = await runTiingo(freshFile(), ['--tickers', 'AAA']);
    expect(summary.rows).toBe(3);
    expect(fake.requests.length).toBe(4);
    expect(summary.log).toContain('Waiting: Tiingo: too many requests (HTTP 429); waiting 1 s as it asks');
    expect(summary.log.some((l) => l.startsWith('Waiting: Tiingo answered HTTP 503'))).toBe(true);
    expect(summary.log.some((l) => l.startsWith('Waiting: Tiingo sent an incomplete answer'))).toBe(true);
  });

  it('a refused key stops the import with a clear message, and the store is not created', async () => {
    fake.bars.set('AAA', weekdayBars('2024-01-02', 3, 10));
    const file = freshFile();
    const progress = lineProgress(() => {});
    await expect(
      withMarketWriter(file, {}, (writer) =>
        importers.tiingo.run(['--tickers', 'AAA'], { writer, progress, env: { tiingo: { ...settings(), apiKey: 'wrong' }, cacheDir } }),
      ),
    ).rejects.toThrow(/Tiingo refused the API key \(HTTP 401\): check TIINGO_API_KEY/);
    await expect(openMarketReader(file)).rejects.toThrow();
  });

  it('a stopped import continues without asking again for the tickers it already has', async () => {
    fake.bars.set('AAA', weekdayBars('2024-01-02', 3, 10));
    fake.bars.set('BBB', weekdayBars('2024-01-02', 3, 20));
    fake.failures.set('BBB', [{ status: 400 }]);
    const file = freshFile();
    await expect(runTiingo(file, ['--tickers', 'AAA,BBB'])).rejects.toThrow(/HTTP 400/);
    await expect(openMarketReader(file)).rejects.toThrow();
    fake.requests.length = 0;
    const summary = await runTiingo(file, ['--tickers', 'AAA,BBB']);
    expect(summary.securities).toBe(2);
    expect(fake.requests.map((r) => r.ticker)).toEqual(['BBB']);
    expect(summary.log).toContain('Continuing an unfinished run: 1 ticker(s) already fetched are read from the cache.');
  });

  it('--refresh asks only for the days after the cached ones and re-adjusts the history for a split on the new day', async () => {
    const aaa = weekdayBars('2024-01-02', 4, 100);
    fake.bars.set('AAA', aaa);
    fake.bars.set('BBB', weekdayBars('2024-01-02', 4, 20));
    const file = freshFile();
    await runTiingo(file, ['--tickers', 'AAA,BBB', '--from', '2024-01-01']);
    // A new day: AAA splits 3-for-1 and pays a dividend on it.
    aaa.push({ date: '2024-01-08', open: 34, high: 35, low: 33, close: 34.5, volume: 3_000_000, splitFactor: 3, divCash: 0.1 });
    fake.bars.get('BBB')!.push({ date: '2024-01-08', open: 24, high: 25, low: 23, close: 24.5, volume: 1_000 });
    fake.requests.length = 0;
    const refresh = await runTiingo(file, ['--refresh']);
    expect(refresh).toMatchObject({ securities: 2, rows: 2 });
    expect(fake.requests.map((r) => [r.ticker, r.startDate])).toEqual([
      ['AAA', '2024-01-05'],
      ['BBB', '2024-01-05'],
    ]);
    const prices = await pricesOf(file, 'AAA');
    expect(prices.map((p) => [p.date, p.close_unadj])).toEqual([
      ['2024-01-02', 100],
      ['2024-01-03', 101],
      ['2024-01-04', 102],
      ['2024-01-05', 103],
      ['2024-01-08', 34.5],
    ]);
    [100 / 3, 101 / 3, 102 / 3, 103 / 3, 34.5].forEach((close, i) => expect(prices[i].close).toBeCloseTo(close, 10));
    expect(await actionsOf(file)).toEqual([
      { ticker: 'AAA', date: '2024-01-08', action: 'dividend', value: 0.1, source: 'tiingo' },
      { ticker: 'AAA', date: '2024-01-08', action: 'split', value: 3, source: 'tiingo' },
    ]);
    const [run] = await query<{ detail: string }>(file, `SELECT detail FROM import_runs ORDER BY finished_at DESC LIMIT 1`);
    expect(run.detail).toBe('2 securities refreshed, 2 new prices, 2 requests');
  });

  it('--all-listed imports the US common stocks of supported_tickers.zip, leaving out delisted ones unless asked', async () => {
    fake.tickersCsv = [
      'ticker,exchange,assetType,priceCurrency,startDate,endDate',
      'AAA,NYSE,Stock,USD,2000-01-03,2024-01-05',
      'BBB,NASDAQ,Stock,USD,2010-01-04,2024-01-05',
      'OLD,NYSE,Stock,USD,2000-01-03,2019-06-28',
      'SPYX,NYSE ARCA,ETF,USD,2000-01-03,2024-01-05',
      '000001,SHE,Stock,CNY,2000-01-03,2024-01-05',
    ].join('\n');
    for (const t of ['AAA', 'BBB', 'OLD']) fake.bars.set(t, weekdayBars('2019-06-24', 3, 10));
    const file = freshFile();
    const listed = await runTiingo(file, ['--all-listed']);
    expect(listed.securities).toBe(2);
    expect(fake.requests.map((r) => r.ticker)).toEqual(['AAA', 'BBB']);
    const withDelisted = await runTiingo(freshFile(), ['--all-listed', '--include-delisted']);
    expect(withDelisted.securities).toBe(3);
  });

  it('refuses to run without a key, and bad arguments with the usage', async () => {
    const progress = lineProgress(() => {});
    const run = (args: string[], apiKey?: string) =>
      withMarketWriter(freshFile(), {}, (writer) =>
        importers.tiingo.run(args, { writer, progress, env: { tiingo: { ...settings(), apiKey }, cacheDir } }),
      );
    await expect(run(['--tickers', 'AAA'])).rejects.toThrow(/set TIINGO_API_KEY/);
    await expect(run(['--tickers', 'AAA', '--from', '2024-13-01'], KEY)).rejects.toThrow(/--from needs a date/);
    await expect(run(['--tickers', 'AAA', '--all-listed'], KEY)).rejects.toThrow(/Give one of --tickers, --all-listed or --refresh/);
  });
});
