import { z } from 'zod';
import { config } from '../config.server';
import { dailyPeriod, nextDailyRun } from '../jobs/daily-at';
import { defineJob, JobInputError } from '../jobs/registry';
import { enqueueJob } from '../jobs/queue.server';
import type { JobRow } from '../jobs/store.server';
import type { ImportSummary } from '../market/store/records';
import { jobProgress } from './import-job.server';
import { runMarketImport, type ImportSource } from './import-run.server';
import { silentProgress } from './progress.server';
import { MarketDataMissingError, marketReader } from '../market/store/open-store.server';

// The daily refresh: new bars for every security in the store from the configured price
// provider, new Sharadar rows from Nasdaq Data Link and new filings from SEC EDGAR, each published like any import (a failure leaves the store as it was and is recorded).
// Every worker's schedule enqueues it under the id of the New York day once DATA_REFRESH_AT has
// passed, so it runs once a day however many workers there are.

export const MARKET_REFRESH_JOB = 'market-refresh';
export const MARKET_TIME_ZONE = 'America/New_York';
const REFRESH_TIMEOUT_MS = 6 * 60 * 60_000;

/**
 * What the refresh asks for what is new: the price provider whose key is set (new bars) and,
 * with SEC_USER_AGENT set, SEC EDGAR (new filings). Each is its own import, published on its own,
 * so a failing one leaves the store as the others made it.
 */
export function refreshSources(): ImportSource[] {
  const c = config();
  const sources: ImportSource[] = [];
  if (c.providers.tiingo.apiKey) sources.push('tiingo');
  if (c.providers.nasdaqDataLink.apiKey) sources.push('nasdaq');
  if (c.secUserAgent) sources.push('sec');
  return sources;
}

export const REFRESH_ARGS = ['--refresh'];
export const NO_REFRESH_SOURCE =
  'Nothing to refresh from: set TIINGO_API_KEY (new daily bars), NASDAQ_DATA_LINK_API_KEY (new Sharadar rows) or SEC_USER_AGENT (new SEC filings).';

export function refreshSummaryLine(s: ImportSummary): string {
  const what = s.source === 'sec' ? 'new facts' : s.source === 'sharadar' ? 'new or updated rows' : 'new prices';
  const built = s.snapshotDates ? ` ${s.snapshotDates.built} of ${s.snapshotDates.total} snapshot dates built.` : '';
  return `Refreshed from ${s.source}: ${s.securities} ${s.source === 'sec' ? 'companies' : 'securities'}, ${s.rows} ${what}. Snapshot ${s.snapshotId}.${built}`;
}

/** The configured sources that have something in the store to bring up to date. */
export async function dueRefreshSources(): Promise<ImportSource[]> {
  const sources = refreshSources();
  const due: ImportSource[] = [];
  for (const source of sources) if (await hasRealData(source)) due.push(source);
  return due;
}

export const marketRefreshJob = defineJob({
  kind: MARKET_REFRESH_JOB,
  payload: z.object({}),
  async run(_payload, ctx) {
    if (refreshSources().length === 0) throw new JobInputError(NO_REFRESH_SOURCE);
    // Nothing real to bring up to date (no store yet, or only the demo): leave the store alone
    // rather than record a failure in it.
    const due = await dueRefreshSources();
    if (due.length === 0) return { message: 'Nothing to refresh: the store has no real securities with prices or filings yet.' };
    const lines: string[] = [];
    const failures: string[] = [];
    for (const source of due) {
      try {
        lines.push(
          refreshSummaryLine(await runMarketImport(source, REFRESH_ARGS, jobProgress(ctx, silentProgress), () => ctx.checkpoint())),
        );
      } catch (e) {
        // Recorded in import_runs by runMarketImport; the other sources still run.
        failures.push(`${source}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (failures.length > 0)
      throw new Error([...lines, `Refresh failed, the store is unchanged by it: ${failures.join('; ')}`].join(' ').slice(0, 1000));
    return { message: lines.join(' ').slice(0, 1000) };
  },
  recurring: {
    everyMs: 24 * 60 * 60_000,
    timeoutMs: REFRESH_TIMEOUT_MS,
    enabled: () => config().providers.refreshAt !== null && refreshSources().length > 0,
    periodAt: (now) => {
      const at = config().providers.refreshAt;
      return at ? dailyPeriod(now, at, MARKET_TIME_ZONE) : null;
    },
  },
});

async function hasRealData(source: ImportSource): Promise<boolean> {
  const where = source === 'sec' ? 'cik IS NOT NULL' : source === 'nasdaq' ? `source = 'sharadar'` : 'last_price_date IS NOT NULL';
  try {
    const reader = await marketReader();
    const [row] = await reader.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM securities WHERE NOT is_demo AND ${where}`);
    return Number(row?.n ?? 0) > 0;
  } catch (e) {
    if (e instanceof MarketDataMissingError) return false;
    throw e;
  }
}

/** When the scheduled refresh runs next; null when DATA_REFRESH_AT=off or no provider is set. */
export function nextRefreshAt(now = Date.now()): Date | null {
  const at = config().providers.refreshAt;
  if (!at || refreshSources().length === 0) return null;
  return new Date(nextDailyRun(now, at, MARKET_TIME_ZONE));
}

/** "Refresh now" from the admin page: a refresh job any worker runs. */
export async function enqueueRefreshNow(userId: string): Promise<JobRow> {
  if (refreshSources().length === 0) throw new JobInputError(NO_REFRESH_SOURCE);
  return enqueueJob(marketRefreshJob.newJob({}, { userId, maxAttempts: 1, timeoutMs: REFRESH_TIMEOUT_MS }));
}
