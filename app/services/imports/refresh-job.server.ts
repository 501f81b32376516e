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
// provider, published like any import (a failure leaves the store as it was and is recorded).
// Every worker's schedule enqueues it under the id of the New York day once DATA_REFRESH_AT has
// passed, so it runs once a day however many workers there are.

export const MARKET_REFRESH_JOB = 'market-refresh';
export const MARKET_TIME_ZONE = 'America/New_York';
const REFRESH_TIMEOUT_MS = 6 * 60 * 60_000;

/** The provider the refresh asks for new bars: the one whose key is set. */
export function refreshProvider(): ImportSource | null {
  return config().providers.tiingo.apiKey ? 'tiingo' : null;
}

export const REFRESH_ARGS = ['--refresh'];

export function refreshSummaryLine(s: ImportSummary): string {
  return `Refreshed from ${s.source}: ${s.securities} securities, ${s.rows} new prices. Snapshot ${s.snapshotId}.`;
}

export const marketRefreshJob = defineJob({
  kind: MARKET_REFRESH_JOB,
  payload: z.object({}),
  async run(_payload, ctx) {
    const source = refreshProvider();
    if (!source) throw new JobInputError('No price provider is configured: set TIINGO_API_KEY.');
    // Nothing real to bring up to date (no store yet, or only the demo): leave the store alone
    // rather than record a failure in it.
    if (!(await hasRealPrices())) return { message: 'Nothing to refresh: the store has no real securities with prices yet.' };
    const summary = await runMarketImport(source, REFRESH_ARGS, jobProgress(ctx, silentProgress), () => ctx.checkpoint());
    return { message: refreshSummaryLine(summary).slice(0, 1000) };
  },
  recurring: {
    everyMs: 24 * 60 * 60_000,
    timeoutMs: REFRESH_TIMEOUT_MS,
    enabled: () => config().providers.refreshAt !== null && refreshProvider() !== null,
    periodAt: (now) => {
      const at = config().providers.refreshAt;
      return at ? dailyPeriod(now, at, MARKET_TIME_ZONE) : null;
    },
  },
});

async function hasRealPrices(): Promise<boolean> {
  try {
    const reader = await marketReader();
    const [row] = await reader.all<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM securities WHERE NOT is_demo AND last_price_date IS NOT NULL`,
    );
    return Number(row?.n ?? 0) > 0;
  } catch (e) {
    if (e instanceof MarketDataMissingError) return false;
    throw e;
  }
}

/** When the scheduled refresh runs next; null when DATA_REFRESH_AT=off or no provider is set. */
export function nextRefreshAt(now = Date.now()): Date | null {
  const at = config().providers.refreshAt;
  if (!at || refreshProvider() === null) return null;
  return new Date(nextDailyRun(now, at, MARKET_TIME_ZONE));
}

/** "Refresh now" from the admin page: a refresh job any worker runs. */
export async function enqueueRefreshNow(userId: string): Promise<JobRow> {
  if (!refreshProvider()) throw new JobInputError('No price provider is configured: set TIINGO_API_KEY to refresh.');
  return enqueueJob(marketRefreshJob.newJob({}, { userId, maxAttempts: 1, timeoutMs: REFRESH_TIMEOUT_MS }));
}
