import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runDataCli } from '~/services/imports/data-cli.server';
import { marketSources } from '~/services/imports/market-sources.server';
import { enqueueRefreshNow, marketRefreshJob } from '~/services/imports/refresh-job.server';
import { createUser } from '~/services/auth/users.server';
import { jobRegistry } from '~/services/jobs/registry';
import { runJob } from '~/services/jobs/runner.server';
import { getJob } from '~/services/jobs/store.server';
import {
  companyFactsPath,
  hasSecSamples,
  secSample,
  startFakeSecEdgar,
  submissionsPath,
  withNewFact,
  withNewFiling,
  type FakeSecEdgar,
} from '~/services/market/importers/testing/fake-sec-edgar';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { captureCli, queryStore, setEnv } from '../support/data-cli';
import { forEachDatabase, type DatabaseTarget } from '../support/databases';

// `npm run data -- refresh` fetching new SEC filings, against a local server speaking
// data.sec.gov's wire format with the recorded Apple and Marvell payloads: only a company whose
// submissions list a periodic report newer than the store's facts has its companyfacts fetched.

const APPLE = '320193';
const MARVELL = '1835632';
const AGENT = 'Quarry Tests tests@example.com';
let fake: FakeSecEdgar;

const samples = hasSecSamples([APPLE, MARVELL]);

beforeAll(async () => {
  if (samples) fake = await startFakeSecEdgar(0);
});
afterAll(async () => {
  await fake?.close();
});

const paths = () => fake.requests.map((r) => r.path);
const TICKERS_PATH = '/files/company_tickers_exchange.json';

forEachDatabase(samples ? 'SEC refresh' : 'SEC refresh (skipped: ../shared/data/fundamentals/sec is absent)', (target: DatabaseTarget) => {
  if (!samples) {
    it.skip('needs the recorded SEC payloads', () => undefined);
    return;
  }
  const env = () => ({
    MARKET_DB: path.join(target.dataDir, 'market.duckdb'),
    SEC_USER_AGENT: AGENT,
    SEC_EDGAR_URL: fake.url,
    TIINGO_API_KEY: undefined,
    DATA_REFRESH_AT: '22:30',
  });
  afterAll(() => setEnv({ MARKET_DB: undefined, SEC_USER_AGENT: undefined, SEC_EDGAR_URL: undefined, DATA_REFRESH_AT: undefined }));
  const marvellRevenue = (file: string) =>
    queryStore<{ value: number; filed: string; form: string; fiscal_period: string }>(
      file,
      `SELECT f.value, strftime(f.filed, '%Y-%m-%d') AS filed, f.form, f.fiscal_period FROM facts f JOIN securities s USING (permaticker)
        WHERE s.cik = '000${MARVELL}' AND f.concept = 'revenue' AND f.period_end = DATE '2026-08-01'`,
    );

  it('refuses without SEC_USER_AGENT, naming the setting', async () => {
    setEnv({ ...env(), SEC_USER_AGENT: undefined });
    fake.requests.length = 0;
    const io = captureCli();
    expect(await runDataCli(['refresh'], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/set TIINGO_API_KEY .* or SEC_USER_AGENT/);
    const direct = captureCli();
    expect(await runDataCli(['import', 'sec', '--refresh'], direct)).toBe(1);
    expect(direct.stderr.join('\n')).toMatch(/SEC refresh refused: set SEC_USER_AGENT/);
    expect(fake.requests).toEqual([]);
  });

  it('imports two companies online, then a refresh fetches companyfacts only for the one with a new 10-Q, and the store shows it', async () => {
    setEnv(env());
    const file = env().MARKET_DB;
    fake.requests.length = 0;
    for (const cik of [APPLE, MARVELL]) {
      fake.documents.set(submissionsPath(cik), secSample('submissions', cik));
      fake.documents.set(companyFactsPath(cik), secSample('companyfacts', cik));
    }
    const imported = captureCli();
    expect(await runDataCli(['import', 'sec', '--online', '--ciks', `${APPLE},${MARVELL}`], imported), imported.stderr.join('\n')).toBe(0);
    expect(fake.requests.every((r) => r.userAgent === AGENT)).toBe(true);
    expect(await marvellRevenue(file)).toEqual([]);
    const [before] = await queryStore<{ n: number }>(file, `SELECT count(*)::INTEGER AS n FROM facts`);

    // Nothing new at the SEC: only the two submissions documents are asked for.
    fake.requests.length = 0;
    const idle = captureCli();
    expect(await runDataCli(['refresh'], idle), idle.stderr.join('\n')).toBe(0);
    expect(idle.stdout.join('\n')).toMatch(/Refreshed from sec: 0 companies, 0 new facts/);
    expect(paths().sort()).toEqual([submissionsPath(APPLE), submissionsPath(MARVELL)].sort());

    // Marvell files its next 10-Q; the first answer for its companyfacts is a 429 with Retry-After.
    const accn = '0001835632-26-000031';
    fake.documents.set(
      submissionsPath(MARVELL),
      withNewFiling(secSample('submissions', MARVELL), {
        accessionNumber: accn,
        filingDate: '2026-08-27',
        reportDate: '2026-08-01',
        form: '10-Q',
      }),
    );
    fake.documents.set(
      companyFactsPath(MARVELL),
      withNewFact(secSample('companyfacts', MARVELL), 'RevenueFromContractWithCustomerExcludingAssessedTax', {
        start: '2026-05-03',
        end: '2026-08-01',
        val: 2_600_000_000,
        accn,
        fy: 2027,
        fp: 'Q2',
        form: '10-Q',
        filed: '2026-08-27',
        frame: 'CY2026Q2',
      }),
    );
    fake.failures.set(companyFactsPath(MARVELL), [{ status: 429, retryAfter: '1' }]);
    fake.requests.length = 0;
    const refreshed = captureCli();
    expect(await runDataCli(['refresh'], refreshed), refreshed.stderr.join('\n')).toBe(0);
    expect(refreshed.stdout.join('\n')).toMatch(/Refreshed from sec: 1 companies, 1 new facts/);
    // Apple had no new filing: its companyfacts were not fetched again.
    // The 429 was waited out and asked again: two requests, both for Marvell.
    expect(paths().filter((p) => p.startsWith('/api/'))).toEqual([companyFactsPath(MARVELL), companyFactsPath(MARVELL)]);
    expect(await marvellRevenue(file)).toEqual([{ value: 2_600_000_000, filed: '2026-08-27', form: '10-Q', fiscal_period: 'Q2' }]);
    const [after] = await queryStore<{ n: number }>(file, `SELECT count(*)::INTEGER AS n FROM facts`);
    expect(after.n).toBe(before.n + 1);
  });

  it('a failing SEC refresh leaves the store unchanged, is recorded, and shows in Admin › Market data sources', async () => {
    setEnv(env());
    const file = env().MARKET_DB;
    const [before] = await queryStore<{ n: number }>(file, `SELECT count(*)::INTEGER AS n FROM facts`);
    const accn = '0001835632-26-000040';
    fake.documents.set(
      submissionsPath(MARVELL),
      withNewFiling(fake.documents.get(submissionsPath(MARVELL))!, {
        accessionNumber: accn,
        filingDate: '2026-09-15',
        reportDate: '2026-08-01',
        form: '10-Q/A',
      }),
    );
    // The companyfacts answer is cut off mid-document.
    fake.failures.set(companyFactsPath(MARVELL), [{ truncated: true }]);
    const io = captureCli();
    expect(await runDataCli(['refresh'], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/Refresh from sec failed, the store is unchanged by it: /);
    const [after] = await queryStore<{ n: number }>(file, `SELECT count(*)::INTEGER AS n FROM facts`);
    expect(after.n).toBe(before.n);
    const [failed] = await queryStore<{ source: string; detail: string }>(
      file,
      `SELECT source, detail FROM import_runs WHERE status = 'failed'`,
    );
    expect(failed.source).toBe('sec');
    expect(failed.detail).toMatch(/\/api\/xbrl\/companyfacts\/CIK0001835632\.json: the answer is not valid JSON/);

    try {
      const { sources, canRefresh } = await marketSources();
      expect(canRefresh).toBe(true);
      const sec = sources.find((s) => s.id === 'sec')!;
      expect(sec).toMatchObject({ keyVar: 'SEC_USER_AGENT', keySet: true });
      expect(sec.lastSuccess?.detail).toBe('1 companies refreshed, 1 new facts, 4 requests');
      expect(sec.lastError?.detail).toBe(failed.detail);
      expect(sec.lastRun?.status).toBe('failed');
      expect(sec.nextRun).not.toBeNull();
    } finally {
      closeMarketReader();
    }
  });

  it('"Refresh now" (the daily job) runs the SEC refresh too', async () => {
    setEnv(env());
    const user = await createUser({
      email: 'admin@example.com',
      password: 'correct horse battery',
      full_name: 'Admin',
      access: true,
      superuser: true,
    });
    const queued = await enqueueRefreshNow(user.id);
    fake.requests.length = 0;
    await runJob(queued.id, 'test-worker', 30_000, jobRegistry([marketRefreshJob]));
    const done = await getJob(queued.id);
    expect(done?.status, done?.error ?? '').toBe('succeeded');
    // The 10-Q/A listed since the failed run is fetched now; its companyfacts add nothing new yet.
    expect(done?.message).toMatch(/^Refreshed from sec: 1 companies, 0 new facts/);
    expect(paths().filter((p) => p.startsWith('/api/'))).toEqual([companyFactsPath(MARVELL)]);
    closeMarketReader();
  });

  it('--online --tickers reads the SEC ticker list through SEC_EDGAR_URL too, declared', async () => {
    setEnv({ ...env(), MARKET_DB: path.join(target.dataDir, 'tickers.duckdb') });
    fake.documents.set(
      TICKERS_PATH,
      JSON.stringify({
        fields: ['cik', 'name', 'ticker', 'exchange'],
        data: [
          [Number(APPLE), 'Apple Inc.', 'AAPL', 'Nasdaq'],
          [Number(MARVELL), 'Marvell Technology, Inc.', 'MRVL', 'Nasdaq'],
        ],
      }),
    );
    fake.requests.length = 0;
    const io = captureCli();
    expect(await runDataCli(['import', 'sec', '--online', '--tickers', 'MRVL'], io), io.stderr.join('\n')).toBe(0);
    expect(paths()[0]).toBe(TICKERS_PATH);
    expect(paths()).toContain(companyFactsPath(MARVELL));
    expect(paths()).not.toContain(companyFactsPath(APPLE));
    expect(fake.requests.every((r) => r.userAgent === AGENT)).toBe(true);
    const unknown = captureCli();
    expect(await runDataCli(['import', 'sec', '--online', '--tickers', 'NOPE'], unknown)).toBe(1);
    expect(unknown.stderr.join('\n')).toMatch(/Unknown ticker NOPE: not in the SEC's ticker list/);
    closeMarketReader();
  });
});
