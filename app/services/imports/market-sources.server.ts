import { config } from '../config.server';
import { MarketDataMissingError, marketReader } from '../market/store/open-store.server';
import type { ImportRun } from './data-status.server';
import { nextRefreshAt, refreshSources } from './refresh-job.server';

// Admin › Market data: each source the store can be filled from, whether its key is set, its
// last run and last error (from the store's import_runs) and when the daily refresh runs next.

export type MarketSource = {
  /** The importer's name, as in import_runs.source. */
  id: 'tiingo' | 'sharadar' | 'sec' | 'prices';
  name: string;
  /** The setting that holds its key; null for sources that need none. */
  keyVar: string | null;
  keySet: boolean;
  lastRun: ImportRun | null;
  /** The newest successful run: its detail says how many rows it added. */
  lastSuccess: ImportRun | null;
  lastError: ImportRun | null;
  /** ISO time of the next scheduled refresh from this source; null when it is not scheduled. */
  nextRun: string | null;
};

export type MarketSources = { sources: MarketSource[]; canRefresh: boolean; refreshOff: boolean };

const RUNS_SQL = `SELECT source, started_at, finished_at, status, detail FROM import_runs
  QUALIFY row_number() OVER (PARTITION BY source, status ORDER BY started_at DESC, id) = 1`;

export async function marketSources(now = Date.now()): Promise<MarketSources> {
  let runs: ImportRun[] = [];
  try {
    runs = await (await marketReader()).all<ImportRun>(RUNS_SQL);
  } catch (e) {
    if (!(e instanceof MarketDataMissingError)) throw e;
  }
  const c = config();
  const next = nextRefreshAt(now)?.toISOString() ?? null;
  // The Nasdaq Data Link refresh records its runs as the Sharadar importer's.
  const refreshed: string[] = refreshSources().map((s) => (s === 'nasdaq' ? 'sharadar' : s));
  const row = (id: MarketSource['id'], name: string, keyVar: string | null, keySet: boolean): MarketSource => {
    const mine = runs.filter((r) => r.source === id);
    const newest = [...mine].sort((a, b) => (a.started_at < b.started_at ? 1 : -1))[0] ?? null;
    return {
      id,
      name,
      keyVar,
      keySet,
      lastRun: newest,
      lastSuccess: mine.find((r) => r.status === 'done') ?? null,
      lastError: mine.find((r) => r.status === 'failed') ?? null,
      nextRun: refreshed.includes(id) ? next : null,
    };
  };
  return {
    sources: [
      row('tiingo', 'Tiingo end-of-day prices', 'TIINGO_API_KEY', Boolean(c.providers.tiingo.apiKey)),
      row('sharadar', 'Nasdaq Data Link (Sharadar)', 'NASDAQ_DATA_LINK_API_KEY', Boolean(c.providers.nasdaqDataLink.apiKey)),
      row('sec', 'SEC EDGAR fundamentals', 'SEC_USER_AGENT', Boolean(c.secUserAgent)),
      row('prices', 'Price files (Stooq, Yahoo, CSV)', null, true),
    ],
    canRefresh: refreshed.length > 0,
    refreshOff: c.providers.refreshAt === null,
  };
}
