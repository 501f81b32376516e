import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDataCli } from '~/services/imports/data-cli.server';
import { MARKET_REFRESH_JOB, marketRefreshJob, nextRefreshAt } from '~/services/imports/refresh-job.server';
import { dailyPeriod, nextDailyRun } from '~/services/jobs/daily-at';
import { jobRegistry } from '~/services/jobs/registry';
import { enqueueDueJobs } from '~/services/jobs/schedule.server';
import { getJob, insertJob, listJobs } from '~/services/jobs/store.server';
import { runJob } from '~/services/jobs/runner.server';
import * as adminRoute from '~/routes/_app.admin';
import { commitSession, getSession, setSignedIn } from '~/services/auth/session.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import { createUser } from '~/services/auth/users.server';
import { callRoute } from '../support/api';
import { startFakeTiingo, weekdayBars, type FakeTiingo } from '~/services/market/importers/testing/fake-tiingo';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { captureCli, queryStore, setEnv } from '../support/data-cli';
import { dumpSnapshotTables, fullRebuildTables } from '../support/snapshot-tables';
import { toEpochDay } from '~/services/dates';
import { forEachDatabase, type DatabaseTarget } from '../support/databases';

// `npm run data -- import tiingo` then `refresh` against a local server speaking Tiingo's
// end-of-day API, the failing refresh, and the daily schedule, on both app databases.

const KEY = 'refresh-test-key';
let fake: FakeTiingo;

beforeAll(async () => {
  fake = await startFakeTiingo(0, KEY);
});
afterAll(async () => {
  await fake.close();
});

forEachDatabase('market refresh', (target: DatabaseTarget) => {
  const env = () => ({
    MARKET_DB: path.join(target.dataDir, 'market.duckdb'),
    TIINGO_API_KEY: KEY,
    TIINGO_API_URL: fake.url,
    DATA_REFRESH_AT: '22:30',
  });
  const restore = { MARKET_DB: undefined, TIINGO_API_KEY: undefined, TIINGO_API_URL: undefined, DATA_REFRESH_AT: undefined };
  afterAll(() => setEnv(restore));

  it('imports two tickers, then a refresh brings in a new day with a split and a dividend, and the metrics follow', async () => {
    setEnv(env());
    const file = env().MARKET_DB;
    fake.bars.clear();
    fake.failures.clear();
    const aaa = weekdayBars('2024-01-02', 30, 100, 0.5);
    fake.bars.set('AAA', aaa);
    fake.bars.set('BBB', weekdayBars('2024-01-02', 30, 40, 0.1));
    const imported = captureCli();
    expect(await runDataCli(['import', 'tiingo', '--tickers', 'AAA,BBB'], imported), imported.stderr.join('\n')).toBe(0);
    expect(imported.stdout.join('\n')).toMatch(/Imported tiingo: 2 securities, 60 rows/);
    const lastClose = aaa[aaa.length - 1].close;

    // The next trading day: AAA splits 2-for-1 and goes ex a 0.5 dividend.
    const newDay = '2024-02-13';
    aaa.push({
      date: newDay,
      open: lastClose / 2,
      high: lastClose / 2 + 1,
      low: lastClose / 2 - 1,
      close: lastClose / 2 + 0.25,
      volume: 5e6,
      splitFactor: 2,
      divCash: 0.5,
    });
    fake.bars.get('BBB')!.push({ date: newDay, open: 43, high: 44, low: 42, close: 43.5, volume: 1e6 });
    fake.requests.length = 0;
    const refreshed = captureCli();
    expect(await runDataCli(['refresh'], refreshed), refreshed.stderr.join('\n')).toBe(0);
    expect(refreshed.stdout.join('\n')).toMatch(/Refreshed from tiingo: 2 securities, 2 new prices/);
    // The split rewrote AAA's split-adjusted history (and so the market's returns) back to its
    // first day: every snapshot date is computed again, as a full rebuild would.
    expect(refreshed.stdout.join('\n')).toMatch(/ 2 of 2 snapshot dates built\./);
    closeMarketReader();
    expect(await dumpSnapshotTables(file)).toEqual(await fullRebuildTables(file));
    expect(fake.requests.map((r) => r.startDate)).toEqual([aaa[aaa.length - 2].date, aaa[aaa.length - 2].date]);

    const prices = await queryStore<{ date: string; close: number; close_unadj: number }>(
      file,
      `SELECT strftime(p.date, '%Y-%m-%d') AS date, p.close, p.close_unadj FROM prices p JOIN securities s USING (permaticker)
        WHERE s.ticker = 'AAA' ORDER BY p.date`,
    );
    expect(prices.length).toBe(31);
    expect(prices[0].close_unadj).toBe(100);
    expect(prices[0].close).toBe(50);
    expect(prices[30]).toEqual({ date: newDay, close: lastClose / 2 + 0.25, close_unadj: lastClose / 2 + 0.25 });
    const actions = await queryStore(
      file,
      `SELECT strftime(date, '%Y-%m-%d') AS date, action, value FROM corporate_actions ORDER BY action`,
    );
    expect(actions).toEqual([
      { date: newDay, action: 'dividend', value: 0.5 },
      { date: newDay, action: 'split', value: 2 },
    ]);
    // The snapshots were rebuilt through the new day on split-consistent prices: that day's
    // market return is a small gain, not the −50 % an unadjusted 2-for-1 split would show.
    const [market] = await queryStore<{ ret: number }>(file, `SELECT ret FROM metric_market_returns WHERE date = DATE '${newDay}'`);
    expect(market.ret).toBeGreaterThan(0);
    expect(market.ret).toBeLessThan(0.05);
    const status = captureCli();
    expect(await runDataCli(['status', '--file', file], status)).toBe(0);
    expect(status.stdout.join('\n')).not.toMatch(/stale/i);
  });

  it('a failing refresh leaves the published store as it was and is listed with its error', async () => {
    setEnv(env());
    const file = env().MARKET_DB;
    fake.failures.set('BBB', [{ status: 400 }]);
    const io = captureCli();
    expect(await runDataCli(['refresh'], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/Refresh from tiingo failed, the store is unchanged by it: .*HTTP 400/);
    // The key travels as a header and as Tiingo's token parameter, but never into a message.
    expect(io.stderr.join('\n')).not.toContain(KEY);
    const [failed] = await queryStore<{ source: string; status: string; detail: string }>(
      file,
      `SELECT source, status, detail FROM import_runs WHERE status = 'failed'`,
    );
    expect(failed).toMatchObject({ source: 'tiingo', status: 'failed' });
    expect(failed.detail).toMatch(/HTTP 400/);
    // Only the failure record was added: the prices are those of the last good refresh.
    const [count] = await queryStore<{ n: number }>(file, `SELECT count(*)::INTEGER AS n FROM prices`);
    expect(count.n).toBe(62);
  });

  it('Admin › Market data lists each source with its key, last run, rows added, next run and last error; "Refresh now" queues a refresh job', async () => {
    setEnv(env());
    fake.failures.clear();
    const user = await createUser({
      email: 'root@example.com',
      password: 'correct horse battery',
      full_name: 'Root',
      access: true,
      superuser: true,
    });
    const session = await getSession(new Request('http://localhost/'));
    setSignedIn(session, await issueUserToken(user.id), user);
    const cookie = (await commitSession(session)).split(';')[0];
    try {
      const page = await callRoute(adminRoute, { path: '/admin', cookie });
      expect(page.status).toBe(200);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const sources = (page.body as any).sources;
      expect(sources.canRefresh).toBe(true);
      const tiingo = sources.sources.find((s: { id: string }) => s.id === 'tiingo');
      expect(tiingo).toMatchObject({ keyVar: 'TIINGO_API_KEY', keySet: true });
      expect(tiingo.lastSuccess.detail).toBe('2 securities refreshed, 2 new prices, 2 requests');
      expect(tiingo.lastError.detail).toMatch(/HTTP 400/);
      expect(tiingo.lastRun.status).toBe('failed');
      expect(tiingo.nextRun).toBe(nextRefreshAt()?.toISOString());
      expect(sources.sources.find((s: { id: string }) => s.id === 'sharadar')).toMatchObject({
        keySet: false,
        lastRun: null,
        nextRun: null,
      });
    } finally {
      closeMarketReader();
    }
    const posted = await callRoute(adminRoute, { path: '/admin', cookie, form: { intent: 'market-refresh' } });
    expect(posted.status).toBe(302);
    const [job] = (await listJobs({ limit: 1000 })).filter((j) => j.kind === MARKET_REFRESH_JOB);
    expect(job.status).toBe('queued');
    await runJob(job.id, 'test-worker', 30_000, jobRegistry([marketRefreshJob]));
    const done = await getJob(job.id);
    expect(done?.status, done?.error ?? '').toBe('succeeded');
    expect(done?.message).toMatch(/^Refreshed from tiingo: 2 securities, 0 new prices/);
  });

  it('a refresh that adds one plain day computes only that snapshot date, and the store equals a full rebuild bit for bit', async () => {
    setEnv(env());
    const file = env().MARKET_DB;
    fake.failures.clear();
    const newDay = '2024-02-14';
    for (const [ticker, close] of [
      ['AAA', 60],
      ['BBB', 44],
    ] as const)
      fake.bars.get(ticker)!.push({ date: newDay, open: close, high: close + 1, low: close - 1, close, volume: 2e6 });
    const refreshed = captureCli();
    expect(await runDataCli(['refresh'], refreshed), refreshed.stderr.join('\n')).toBe(0);
    // Snapshot dates: the January month-end (kept) and the new latest day (built); the old
    // latest day, not a month-end, is no longer one.
    expect(refreshed.stdout.join('\n')).toMatch(/Refreshed from tiingo: 2 securities, 2 new prices\..* 1 of 2 snapshot dates built\./);
    closeMarketReader();
    const stored = await dumpSnapshotTables(file);
    expect(stored.metric_snapshot_dates).toContain(String(toEpochDay(newDay)));
    expect(stored).toEqual(await fullRebuildTables(file));
  });

  it('the schedule enqueues one refresh per New York day once DATA_REFRESH_AT has passed, and none when off', async () => {
    setEnv(env());
    const jobs = jobRegistry([marketRefreshJob]);
    const count = async () => (await listJobs({ limit: 1000 })).filter((j) => j.id.startsWith(`${MARKET_REFRESH_JOB}@`)).length;
    // 22:00 New York (EST, UTC−5) on 2026-11-23: not yet due.
    const before = Date.parse('2026-11-24T03:00:00Z');
    expect(await enqueueDueJobs(jobs, before)).toEqual([]);
    const after = Date.parse('2026-11-24T03:31:00Z');
    expect(await enqueueDueJobs(jobs, after)).toEqual([`${MARKET_REFRESH_JOB}@2026-11-23`]);
    // Other workers, a minute later: still the one job.
    await enqueueDueJobs(jobs, after + 60_000);
    await enqueueDueJobs(jobs, after + 120_000);
    expect(await count()).toBe(1);
    expect(nextRefreshAt(after)?.toISOString()).toBe('2026-11-25T03:30:00.000Z');
    setEnv({ ...env(), DATA_REFRESH_AT: 'off' });
    expect(await enqueueDueJobs(jobs, after + 86_400_000)).toEqual([]);
    expect(nextRefreshAt(after)).toBeNull();
    setEnv({ ...env(), TIINGO_API_KEY: undefined });
    expect(await enqueueDueJobs(jobs, after + 86_400_000)).toEqual([]);
  });

  it('a scheduled refresh with no real securities to refresh leaves the store alone', async () => {
    const missing = path.join(target.dataDir, 'not-yet.duckdb');
    setEnv({ ...env(), MARKET_DB: missing });
    const job = await insertJob(marketRefreshJob.newJob({}, { timeoutMs: 60_000 }));
    await runJob(job.id, 'test-worker', 30_000, jobRegistry([marketRefreshJob]));
    expect(await getJob(job.id)).toMatchObject({
      status: 'succeeded',
      message: 'Nothing to refresh: the store has no real securities with prices or filings yet.',
    });
    expect(existsSync(missing)).toBe(false);
  });
});

describe('daily times in New York', () => {
  const at = { hour: 22, minute: 30 };
  it('follows daylight saving time', () => {
    // EDT (UTC−4) in July, EST (UTC−5) in January.
    expect(dailyPeriod(Date.parse('2026-07-15T02:29:00Z'), at, 'America/New_York')).toBeNull();
    expect(dailyPeriod(Date.parse('2026-07-15T02:30:00Z'), at, 'America/New_York')).toBe('2026-07-14');
    expect(dailyPeriod(Date.parse('2026-01-15T03:30:00Z'), at, 'America/New_York')).toBe('2026-01-14');
    expect(new Date(nextDailyRun(Date.parse('2026-03-08T12:00:00Z'), at, 'America/New_York')).toISOString()).toBe(
      '2026-03-09T02:30:00.000Z',
    );
    expect(new Date(nextDailyRun(Date.parse('2026-11-01T12:00:00Z'), at, 'America/New_York')).toISOString()).toBe(
      '2026-11-02T03:30:00.000Z',
    );
  });
});
