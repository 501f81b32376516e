import { APP_JOBS } from './app-jobs.server';
import { closeRateLimits } from './auth/rate-limit.server';
import { config, productionWarnings } from './config.server';
import { closeDb, getDb } from './db/db.server';
import { closeJobQueue, startJobWorker, type JobWorker } from './jobs/queue.server';
import { MarketDataMissingError, marketReader } from './market/store/open-store.server';

// Process start-up: validate the configuration once (an invalid GTM_ID stops the server rather
// than load a tag manager nobody meant), warn about production settings left at their defaults,
// and apply database migrations before the first request needs them, then start this process's
// job worker.
let started: Promise<void> | null = null;

/** How long SIGTERM waits for the job being run to reach its next step, as `npm run worker` does. */
const JOB_GRACE_MS = 10_000;

/** Starts this process's services; the promise settles once the app database is open and migrated. */
export function startServer(): Promise<void> {
  if (started) return started;
  const c = config();
  for (const warning of productionWarnings(c)) console.warn(`[config] ${warning}`);
  let worker: JobWorker | null = null;
  started = getDb()
    .then(() => {
      // Jobs run in this process too, unless JOBS_IN_APP=0 leaves them to `npm run worker`.
      if (c.jobs.inApp) worker = startJobWorker(APP_JOBS);
    })
    .catch((error: unknown) => {
      console.error('[startup] the app database could not be opened or migrated', error);
      process.exit(1);
    });
  stopOnSignals(() => worker);
  void reportMarketData(c.marketDb);
  return started;
}

/**
 * A market store that is missing or unusable is said once at start-up, on one line, so the
 * operator need not find it in a page's 503; the app still starts (an import can publish one).
 */
async function reportMarketData(file: string): Promise<void> {
  try {
    await marketReader(file);
  } catch (e) {
    const why = e instanceof MarketDataMissingError ? e.message : `The market data at ${file} cannot be used: ${String(e)}`;
    console.error(`[startup] market data unavailable: ${why.replace(/\s+/g, ' ')}`);
  }
}

/**
 * scripts/start.mjs closes the HTTP server on SIGTERM/SIGINT, but the job worker's timers and the Redis
 * and database connections would keep the process alive until a process manager kills it. Stop
 * them too: the current job gets JOB_GRACE_MS to reach its next step (one left unfinished is
 * taken over by another worker when its lease lapses), then the process exits.
 */
function stopOnSignals(worker: () => JobWorker | null): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.info(`[startup] ${signal}: stopping the job worker and closing connections`);
    setTimeout(() => process.exit(0), JOB_GRACE_MS + 2_000).unref();
    await worker()
      ?.stop()
      .catch((e: unknown) => console.warn(`[startup] job worker: ${e instanceof Error ? e.message : String(e)}`));
    await Promise.allSettled([closeJobQueue(), closeRateLimits()]);
    await closeDb().catch(() => undefined);
    // Answers already being written get a moment; then nothing is left to wait for.
    setTimeout(() => process.exit(0), 500).unref();
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop(signal));
}
