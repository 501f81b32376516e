import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import type { ImportSummary } from '../store/records';
import { openMarketReader } from '../store/open-store.server';
import { withMarketWriter } from '../store/writer.server';
import { importers } from './index.server';
import { COMPANYFACTS_ZIP_PATH, SUBMISSIONS_ZIP_PATH } from './sec/bulk-archive.server';
import { hasSecSamples, secSample, startFakeSecEdgar, type FakeSecEdgar } from './testing/fake-sec-edgar';
import { lineProgress } from './testing/line-progress';
import { zipEntries } from './zip-entries.server';
import { tempDirForSuite } from '../../../../tests/support/temp-dir';

// `import sec --bulk` against a local server serving ZIP64 archives shaped like the SEC's nightly
// companyfacts.zip and submissions.zip (built from the recorded Apple and Marvell payloads).

const AGENT = 'Quarry Tests tests@example.com';
const dir = tempDirForSuite('quarry-sec-bulk-');
const cacheDir = () => path.join(dir(), 'providers');
let fake: FakeSecEdgar;
let factsZip: Buffer;

function zip64(files: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, body] of Object.entries(files)) zip.addBuffer(Buffer.from(body), name, { forceZip64Format: true });
  zip.end({ forceZip64Format: true, comment: '' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

const samples = hasSecSamples(['320193', '1835632']) && hasSecSamples(['789019'], ['submissions']);

beforeAll(async () => {
  if (!samples) return;
  fake = await startFakeSecEdgar(0);
  factsZip = await zip64({
    'CIK0000320193.json': secSample('companyfacts', '320193'),
    'CIK0001835632.json': secSample('companyfacts', '1835632'),
  });
  fake.archives.set(COMPANYFACTS_ZIP_PATH, factsZip);
  fake.archives.set(
    SUBMISSIONS_ZIP_PATH,
    await zip64({
      'CIK0000320193.json': secSample('submissions', '320193'),
      'CIK0001835632.json': secSample('submissions', '1835632'),
      'CIK0000789019.json': secSample('submissions', '789019'),
    }),
  );
  fake.documents.set(
    '/files/company_tickers_exchange.json',
    JSON.stringify({
      fields: ['cik', 'name', 'ticker', 'exchange'],
      data: [
        [320193, 'Apple Inc.', 'AAPL', 'Nasdaq'],
        [1835632, 'Marvell Technology, Inc.', 'MRVL', 'Nasdaq'],
      ],
    }),
  );
});
afterAll(async () => {
  await fake?.close();
});

async function runSec(file: string, args: string[], userAgent: string | null = AGENT): Promise<ImportSummary> {
  return withMarketWriter(file, {}, (writer) =>
    importers.sec.run(args, {
      writer,
      progress: lineProgress(() => {}),
      env: { secUserAgent: userAgent ?? undefined, secArchivesUrl: fake.url, cacheDir: cacheDir() },
    }),
  );
}

async function query<T = Record<string, unknown>>(file: string, sql: string): Promise<T[]> {
  const reader = await openMarketReader(file);
  try {
    return await reader.all<T>(sql);
  } finally {
    reader.close();
  }
}

const archiveRequests = () => fake.requests.filter((r) => r.path.startsWith('/Archives/'));

describe.skipIf(!samples)('SEC bulk archives online', () => {
  it('the test archives are ZIP64, which the in-memory zip reader refuses', () => {
    expect(() => zipEntries(new Uint8Array(factsZip), 'companyfacts.zip')).toThrow();
  });

  it('refuses without SEC_USER_AGENT', async () => {
    await expect(runSec(path.join(dir(), 'none.duckdb'), ['--bulk'], null)).rejects.toThrow(/SEC bulk import refused: set SEC_USER_AGENT/);
    expect(fake.requests).toEqual([]);
  });

  it('a download cut off mid-archive fails, and the next run continues it from where it stopped and imports the listed ticker', async () => {
    const file = path.join(dir(), 'one.duckdb');
    fake.cutArchiveAfter = Math.floor(factsZip.length / 2);
    await expect(runSec(file, ['--bulk', '--tickers', 'MRVL'])).rejects.toThrow(/download cut off .* run the import again to continue it/);
    expect(existsSync(file)).toBe(false);
    // What the dropped connection left depends on how much reached the disk; make it exactly
    // half of the archive, as a run killed mid-download leaves it.
    const half = Math.floor(factsZip.length / 2);
    writeFileSync(path.join(cacheDir(), 'sec', 'companyfacts.zip.part'), factsZip.subarray(0, half));
    fake.requests.length = 0;
    const summary = await runSec(file, ['--bulk', '--tickers', 'MRVL']);
    expect(summary.securities).toBe(1);
    const [resumed] = archiveRequests();
    expect(resumed.path).toBe(COMPANYFACTS_ZIP_PATH);
    expect(resumed.range).toBe(`bytes=${half}-`);
    expect(fake.requests.every((r) => r.userAgent === AGENT)).toBe(true);
    const securities = await query(file, `SELECT ticker, cik, exchange, sector IS NOT NULL AS has_sector FROM securities`);
    expect(securities).toEqual([{ ticker: 'MRVL', cik: '0001835632', exchange: 'Nasdaq', has_sector: true }]);
    const [revenue] = await query<{ value: number }>(
      file,
      `SELECT value FROM facts WHERE concept = 'revenue' AND period_end = DATE '2026-05-02' AND fiscal_period = 'Q1'`,
    );
    expect(revenue.value).toBe(2_417_800_000);
  });

  it('imports every filer of the archive, reusing the archives already downloaded', async () => {
    const file = path.join(dir(), 'all.duckdb');
    fake.requests.length = 0;
    const summary = await runSec(file, ['--bulk']);
    expect(summary.securities).toBe(2);
    expect(archiveRequests()).toEqual([]);
    const tickers = await query<{ ticker: string }>(file, `SELECT ticker FROM securities ORDER BY ticker`);
    expect(tickers.map((t) => t.ticker)).toEqual(['AAPL', 'MRVL']);
  });
});
