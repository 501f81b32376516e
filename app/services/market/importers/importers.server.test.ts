import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ImportFileError, type ImportSummary } from '../store/records';
import { openMarketReader } from '../store/open-store.server';
import { withMarketWriter } from '../store/writer.server';
import { importers } from './index.server';
import { lineProgress } from './testing/line-progress';

// Importers against a real DuckDB store through the real writer.

const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-import-'));
let n = 0;
const freshFile = () => path.join(dir, `market-${++n}.duckdb`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIX = path.resolve('tests/fixtures');
const DATA = path.resolve('../shared/data');

type Env = { secUserAgent?: string };
async function runImport(
  file: string,
  source: string,
  args: string[],
  env: Env = {},
  fetchImpl?: typeof fetch,
): Promise<ImportSummary & { log: string[] }> {
  const progress = lineProgress(() => {});
  const summary = await withMarketWriter(file, {}, (writer) => importers[source].run(args, { writer, progress, env, fetch: fetchImpl }));
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

const sha256 = (file: string) => (existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : 'absent');

describe('sec importer (fixture)', () => {
  it('imports a company with its profile, every fact with an accession, and re-runs to the same snapshot', async () => {
    const file = freshFile();
    const first = await runImport(file, 'sec', [path.join(FIX, 'sec')]);
    expect(first).toMatchObject({ source: 'sec', securities: 1 });
    expect(first.log).toContain('tick SEC companyfacts 1/1');
    const [security] = await query(file, 'SELECT ticker, name, exchange, sector, industry, cik, source FROM securities');
    expect(security).toEqual({
      ticker: 'EXFX',
      name: 'Example Fixture Corp',
      exchange: 'Nasdaq',
      sector: 'Information Technology',
      industry: 'Services-Prepackaged Software',
      cik: '0000999999',
      source: 'sec',
    });
    const [counts] = await query<{ facts: number; missing: number }>(
      file,
      `SELECT count(*)::INTEGER AS facts, count(*) FILTER (WHERE accession IS NULL)::INTEGER AS missing FROM facts`,
    );
    expect(counts.facts).toBe(first.rows);
    expect(counts.missing).toBe(0);
    const again = await runImport(file, 'sec', [path.join(FIX, 'sec')]);
    expect(again.snapshotId).toBe(first.snapshotId);
    const [recount] = await query<{ facts: number }>(file, 'SELECT count(*)::INTEGER AS facts FROM facts');
    expect(recount.facts).toBe(counts.facts);
  });

  it('fills in the name, CIK and classification of a security the prices importer created, keeping its prices', async () => {
    const file = freshFile();
    await runImport(file, 'prices', ['--ticker', 'EXFX', path.join(FIX, 'prices/PLAIN.csv')]);
    const before = await query(file, `SELECT ticker, name, cik, strftime(last_price_date, '%Y-%m-%d') AS last, source FROM securities`);
    expect(before).toMatchObject([{ ticker: 'EXFX', name: 'EXFX', cik: null, source: 'prices' }]);

    const first = await runImport(file, 'sec', [path.join(FIX, 'sec')]);
    const after = await query(
      file,
      `SELECT ticker, name, exchange, sector, industry, cik, strftime(last_price_date, '%Y-%m-%d') AS last, source FROM securities`,
    );
    expect(after).toEqual([
      {
        ticker: 'EXFX',
        name: 'Example Fixture Corp',
        exchange: 'Nasdaq',
        sector: 'Information Technology',
        industry: 'Services-Prepackaged Software',
        cik: '0000999999',
        last: before[0].last,
        source: 'prices',
      },
    ]);
    // The facts went to the same security, and a second run finds it by its CIK and changes nothing.
    const [facts] = await query<{ n: number }>(file, 'SELECT count(DISTINCT permaticker)::INTEGER AS n FROM facts');
    expect(facts.n).toBe(1);
    const again = await runImport(file, 'sec', [path.join(FIX, 'sec')]);
    expect(again.snapshotId).toBe(first.snapshotId);
  });

  it('reads the bulk companyfacts.zip (entries inflated one at a time) like the loose files', async () => {
    const { zipSync } = await import('fflate');
    const { writeFileSync } = await import('node:fs');
    const zip = path.join(dir, 'companyfacts.zip');
    writeFileSync(
      zip,
      zipSync({
        'CIK0000999999.json': readFileSync(path.join(FIX, 'sec/CIK0000999999.json')),
        'README.txt': new TextEncoder().encode('not a company'),
      }),
    );
    const fromZip = freshFile();
    const fromFiles = freshFile();
    const profile = [path.join(FIX, 'sec/submissions-CIK0000999999.json')];
    const a = await runImport(fromZip, 'sec', [zip, ...profile]);
    const b = await runImport(fromFiles, 'sec', [path.join(FIX, 'sec/CIK0000999999.json'), ...profile]);
    expect(a.rows).toBeGreaterThan(0);
    expect(a.snapshotId).toBe(b.snapshotId);
  });

  it('refuses to go online without a declared User-Agent', async () => {
    const file = freshFile();
    await expect(runImport(file, 'sec', ['--online', '--tickers', 'AAPL'])).rejects.toThrow(/SEC_USER_AGENT/);
    expect(existsSync(file)).toBe(false);
  });

  it('leaves the store as it was when a companyfacts file is broken', async () => {
    const file = freshFile();
    const before = await runImport(file, 'prices', [path.join(FIX, 'prices/YHOO.csv')]);
    const hash = sha256(file);
    const bad = path.join(dir, 'CIK0000000042.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bad, '{"cik":42,"entityName":"Broken","facts":{"us-gaap":{"Revenues":{"units":{"USD":[{"end":"2020-12-31","val":1,');
    const error = await runImport(file, 'sec', [path.join(FIX, 'sec'), bad]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).file).toBe(bad);
    expect((error as ImportFileError).line).toBe(1);
    expect(sha256(file)).toBe(hash);
    const [meta] = await query<{ value: string }>(file, `SELECT value FROM meta WHERE key = 'snapshot_id'`);
    expect(meta.value).toBe(before.snapshotId);
  });
});

const hasSec = existsSync(path.join(DATA, 'fundamentals/sec/companyfacts/CIK0000320193.json'));
if (!hasSec) console.warn(`Skipping real SEC import checks: ${DATA}/fundamentals/sec is absent`);

describe.skipIf(!hasSec)('sec importer (real EDGAR files)', () => {
  const inputs = [
    path.join(DATA, 'fundamentals/sec/companyfacts'),
    path.join(DATA, 'fundamentals/sec/submissions'),
    path.join(DATA, 'companies/sec_company_tickers_exchange_2023-05.json'),
    path.join(DATA, 'companies/sec_company_tickers_2024-05.json'),
  ];

  it('imports the six companies offline with tickers, exchanges and the AAPL restatement as a new fact', async () => {
    const file = freshFile();
    const summary = await runImport(file, 'sec', inputs);
    expect(summary.securities).toBe(6);
    const securities = await query<{ ticker: string; exchange: string | null }>(
      file,
      'SELECT ticker, exchange FROM securities ORDER BY cik',
    );
    expect(securities.map((s) => s.ticker)).toEqual(['AAPL', 'NVDA', 'SNOW', 'GOOGL', 'MRVL', 'LPA']);
    expect(securities[0].exchange).toBe('Nasdaq');
    const rows = await query<{ value: number; filed: string; form: string }>(
      file,
      `SELECT f.value, f.filed::VARCHAR AS filed, f.form FROM facts f JOIN securities s USING (permaticker)
       WHERE s.ticker = 'AAPL' AND f.concept = 'net_income' AND f.fiscal_year = 2009 AND f.fiscal_period = 'FY' ORDER BY f.filed`,
    );
    expect(rows).toEqual([
      { value: 5_704_000_000, filed: '2009-10-27', form: '10-K' },
      { value: 8_235_000_000, filed: '2010-01-25', form: '10-K/A' },
    ]);
    expect(summary.warnings.join('\n')).toMatch(/IFRS filer/);
  });

  it('imports online through data.sec.gov (recorded answers), declared and at most 10 requests a second', async () => {
    const served = new Map<string, string>();
    for (const cik of ['0000320193', '0001045810', '0001652044', '0001835632', '0001640147']) {
      served.set(
        `https://data.sec.gov/api/xbrl/companyfacts/CIK${cik}.json`,
        path.join(DATA, `fundamentals/sec/companyfacts/CIK${cik}.json`),
      );
      const sub = path.join(DATA, `fundamentals/sec/submissions/CIK${cik}.json`);
      if (existsSync(sub)) served.set(`https://data.sec.gov/submissions/CIK${cik}.json`, sub);
    }
    served.set(
      'https://www.sec.gov/files/company_tickers_exchange.json',
      path.join(DATA, 'companies/sec_company_tickers_exchange_2023-05.json'),
    );
    const calls: { url: string; at: number; agent: string | null }[] = [];
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, at: Date.now(), agent: new Headers(init?.headers).get('user-agent') });
      const body = served.get(url);
      return body
        ? new Response(readFileSync(body), { status: 200, headers: { 'content-type': 'application/json' } })
        : new Response('{"error":"not found"}', { status: 404 });
    }) as typeof fetch;
    const file = freshFile();
    const summary = await runImport(
      file,
      'sec',
      ['--online', '--tickers', 'AAPL,NVDA,GOOGL,MRVL,SNOW'],
      { secUserAgent: 'Quarry tests tests@example.com' },
      fakeFetch,
    );
    expect(summary.securities).toBe(5);
    expect(calls.length).toBe(11);
    expect(calls.every((c) => c.agent === 'Quarry tests tests@example.com')).toBe(true);
    for (let i = 10; i < calls.length; i++) expect(calls[i].at - calls[i - 10].at).toBeGreaterThanOrEqual(990);
    expect(summary.warnings.join('\n')).toMatch(/CIK0001640147\.json: not found/);
    const offline = freshFile();
    const files = await runImport(offline, 'sec', [...inputs, '--tickers', 'AAPL,NVDA,GOOGL,MRVL,SNOW']);
    const count = async (f: string) => (await query<{ n: number }>(f, 'SELECT count(*)::INTEGER AS n FROM facts'))[0].n;
    expect(await count(file)).toBe(await count(offline));
    expect(files.securities).toBe(5);
  });
});

describe('sharadar importer', () => {
  it('imports TICKERS, SEP, SF1 and ACTIONS by permaticker and re-runs to the same snapshot', async () => {
    const file = freshFile();
    const first = await runImport(file, 'sharadar', [path.join(FIX, 'sharadar')]);
    expect(first.securities).toBe(3);
    const counts = await query(
      file,
      `SELECT (SELECT count(*) FROM prices)::INTEGER AS prices, (SELECT count(*) FROM facts)::INTEGER AS facts,
      (SELECT count(*) FROM corporate_actions)::INTEGER AS actions, (SELECT count(*) FROM ticker_history)::INTEGER AS tickers`,
    );
    expect(counts[0]).toMatchObject({ prices: 8, actions: 5, tickers: 4 });
    const history = await query(
      file,
      `SELECT ticker, start_date::VARCHAR AS s, end_date::VARCHAR AS e FROM ticker_history WHERE permaticker = 194817 ORDER BY start_date`,
    );
    expect(history).toEqual([
      { ticker: 'FB', s: '2012-05-18', e: '2022-06-08' },
      { ticker: 'META', s: '2022-06-09', e: null },
    ]);
    const again = await runImport(file, 'sharadar', [path.join(FIX, 'sharadar')]);
    expect(again.snapshotId).toBe(first.snapshotId);
  });

  it('rejects a SEP row of an unknown ticker and leaves the store as it was', async () => {
    const file = freshFile();
    const before = await runImport(file, 'sharadar', [path.join(FIX, 'sharadar/SHARADAR_TICKERS.csv')]);
    const hash = sha256(file);
    const bad = path.join(dir, 'SEP_unknown.csv');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bad, `${readFileSync(path.join(FIX, 'sharadar/SHARADAR_SEP.csv'), 'utf8')}NOPE,2020-01-02,1,1,1,1,1,1,1,2024-01-05\n`);
    const error = await runImport(file, 'sharadar', [path.join(FIX, 'sharadar/SHARADAR_TICKERS.csv'), bad]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect(String(error)).toContain(`${bad}:10: unknown ticker "NOPE"`);
    expect(sha256(file)).toBe(hash);
    expect(before.snapshotId).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('prices importer', () => {
  const good = ['TIIN.csv', 'ZIPL.csv', 'YHOO.csv', 'panel.csv', 'exmp.us.csv'].map((f) => path.join(FIX, 'prices', f));

  it('imports several layouts, actions included, and re-runs to the same snapshot', async () => {
    const file = freshFile();
    const first = await runImport(file, 'prices', good);
    expect(first.securities).toBe(6);
    expect(first.warnings).toEqual([expect.stringMatching(/no close, row skipped/)]);
    const actions = await query(
      file,
      `SELECT s.ticker, a.action, a.value FROM corporate_actions a JOIN securities s USING (permaticker) ORDER BY s.ticker, a.date`,
    );
    expect(actions).toEqual([
      { ticker: 'TIIN', action: 'dividend', value: 1 },
      { ticker: 'TIIN', action: 'split', value: 2 },
      { ticker: 'ZIPL', action: 'dividend', value: 1 },
      { ticker: 'ZIPL', action: 'split', value: 2 },
    ]);
    const again = await runImport(file, 'prices', good);
    expect(again.snapshotId).toBe(first.snapshotId);
  });

  it.each([
    ['WRONGCOLS.csv', 1],
    ['BROKEN.csv', 3],
    ['HIGHLOW.csv', 3],
    ['NEGATIVE.csv', 3],
    ['BADDATE.csv', 3],
  ])('%s: ImportFileError at line %i, store unchanged', async (name, line) => {
    const file = freshFile();
    const before = await runImport(file, 'prices', [good[2]]);
    const hash = sha256(file);
    const hostile = path.join(FIX, 'prices/hostile', name);
    const error = await runImport(file, 'prices', [good[0], hostile]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).file).toBe(hostile);
    expect((error as ImportFileError).line).toBe(line);
    expect(sha256(file)).toBe(hash);
    const [meta] = await query<{ value: string }>(file, `SELECT value FROM meta WHERE key = 'snapshot_id'`);
    expect(meta.value).toBe(before.snapshotId);
  });

  it('--known-only: a ticker the store does not know is an error at its first row, store unchanged', async () => {
    const file = freshFile();
    const seeded = await runImport(file, 'prices', [path.join(FIX, 'prices/YHOO.csv')]);
    const known = await runImport(file, 'prices', [path.join(FIX, 'prices/YHOO.csv'), '--known-only']);
    expect(known.securities).toBe(1);
    expect(known.snapshotId).toBe(seeded.snapshotId);
    const hash = sha256(file);
    const panelFile = path.join(FIX, 'prices/panel.csv');
    const error = await runImport(file, 'prices', [panelFile, '--known-only']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect(String(error)).toContain(`${panelFile}:2: unknown ticker "AAA"`);
    expect(sha256(file)).toBe(hash);
  });

  const zipline = path.join(DATA, 'corporate_actions/zipline_csvdir_daily_2012-2014');
  it.skipIf(!existsSync(zipline))(
    'real zipline csvdir folder: AAPL adjusted closes continuous across 2014-06-09, KO split 2:1',
    async () => {
      const file = freshFile();
      const summary = await runImport(file, 'prices', [zipline]);
      expect(summary.securities).toBe(4);
      const around = await query<{ d: string; close: number; close_unadj: number }>(
        file,
        `SELECT p.date::VARCHAR AS d, p.close, p.close_unadj FROM prices p JOIN securities s USING (permaticker)
       WHERE s.ticker = 'AAPL' AND p.date BETWEEN '2014-06-06' AND '2014-06-09' ORDER BY p.date`,
      );
      expect(around.map((r) => r.d)).toEqual(['2014-06-06', '2014-06-09']);
      expect(Math.abs(around[1].close / around[0].close - 1)).toBeLessThan(0.05);
      expect(around[0].close_unadj / around[1].close_unadj).toBeGreaterThan(6);
      const splits = await query(
        file,
        `SELECT s.ticker, a.date::VARCHAR AS d, a.value FROM corporate_actions a JOIN securities s USING (permaticker) WHERE a.action = 'split' ORDER BY s.ticker`,
      );
      expect(splits).toEqual([
        { ticker: 'AAPL', d: '2014-06-09', value: 7 },
        { ticker: 'KO', d: '2012-08-13', value: 2 },
      ]);
    },
  );
});
