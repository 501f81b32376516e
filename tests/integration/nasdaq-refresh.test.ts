import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runDataCli } from '~/services/imports/data-cli.server';
import { marketSources } from '~/services/imports/market-sources.server';
import { nextRefreshAt, refreshSources } from '~/services/imports/refresh-job.server';
import { AAPL_SEP_2024_01_08, startFakeNasdaq, type FakeNasdaq } from '~/services/market/importers/testing/fake-nasdaq-data-link';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { captureCli, queryStore, setEnv } from '../support/data-cli';
import { forEachDatabase, type DatabaseTarget } from '../support/databases';
import { dumpSnapshotTables, fullRebuildTables } from '../support/snapshot-tables';

// `npm run data -- refresh` with NASDAQ_DATA_LINK_API_KEY set, against a local server speaking
// Nasdaq Data Link's tables API (serving the Sharadar fixture tables): the rows updated since
// the store's newest Sharadar day are merged in, and Admin › Market data shows the run.

const KEY = 'ndl-refresh-key';

forEachDatabase('Nasdaq Data Link refresh', (target: DatabaseTarget) => {
  // A server per database: the test adds rows to it, and each run starts from the fixture tables.
  let fake: FakeNasdaq;
  beforeAll(async () => {
    fake = await startFakeNasdaq(0, KEY, path.resolve('tests/fixtures/sharadar'));
  });
  afterAll(async () => {
    await fake.close();
  });
  const env = () => ({
    MARKET_DB: path.join(target.dataDir, 'market.duckdb'),
    NASDAQ_DATA_LINK_API_KEY: KEY,
    NASDAQ_DATA_LINK_API_URL: fake.url,
    TIINGO_API_KEY: undefined,
    SEC_USER_AGENT: undefined,
    DATA_REFRESH_AT: '22:30',
  });
  afterAll(() =>
    setEnv({ MARKET_DB: undefined, NASDAQ_DATA_LINK_API_KEY: undefined, NASDAQ_DATA_LINK_API_URL: undefined, DATA_REFRESH_AT: undefined }),
  );

  it('imports three tickers, then the refresh merges a new day and a dividend; Admin lists the run and the next one', async () => {
    setEnv(env());
    const file = env().MARKET_DB;
    expect(refreshSources()).toEqual(['nasdaq']);
    const imported = captureCli();
    expect(await runDataCli(['import', 'nasdaq', '--tickers', 'AAPL,META,LEH'], imported), imported.stderr.join('\n')).toBe(0);
    const [before] = await queryStore<{ n: number }>(file, 'SELECT count(*)::INTEGER AS n FROM prices');

    fake.addRows('SEP', [AAPL_SEP_2024_01_08]);
    fake.addRows('ACTIONS', [{ date: '2024-01-08', action: 'dividend', ticker: 'AAPL', name: 'Apple Inc', value: '0.24' }]);
    fake.requests.length = 0;
    const refreshed = captureCli();
    expect(await runDataCli(['refresh'], refreshed), refreshed.stderr.join('\n')).toBe(0);
    expect(refreshed.stdout.join('\n')).toMatch(
      /Refreshed from sharadar: 3 securities, \d+ new or updated rows\..* \d+ of \d+ snapshot dates built\./,
    );
    expect(fake.requests.find((r) => r.table === 'SEP')?.params).toMatchObject({ 'lastupdated.gte': '2023-11-03' });
    const [after] = await queryStore<{ n: number }>(file, 'SELECT count(*)::INTEGER AS n FROM prices');
    expect(after.n).toBe(before.n + 1);
    const [aapl] = await queryStore<{ last: string }>(
      file,
      `SELECT strftime(last_price_date, '%Y-%m-%d') AS last FROM securities WHERE ticker = 'AAPL'`,
    );
    expect(aapl.last).toBe('2024-01-08');
    closeMarketReader();
    // AAPL's new bar comes years after its last one: the days since then are built again.
    expect(await dumpSnapshotTables(file)).toEqual(await fullRebuildTables(file));

    const sources = await marketSources();
    closeMarketReader();
    const sharadar = sources.sources.find((s) => s.id === 'sharadar');
    expect(sharadar).toMatchObject({ keyVar: 'NASDAQ_DATA_LINK_API_KEY', keySet: true, nextRun: nextRefreshAt()?.toISOString() });
    expect(sharadar?.lastSuccess?.detail).toMatch(/^3 securities, \d+ rows$/);
    expect(sources.canRefresh).toBe(true);
  });
});
