import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cachedColumnBytes } from '../market/store/column-cache.server';
import { DomainError, isDomainError } from '../http/errors';
import { ScreenSchema } from '../screener/model';
import { computeBacktest } from './compute.server';
import { prefetchMarketInputs, releaseMarketInputs } from './market-inputs.server';
import { BacktestCancelledError, BacktestInputError, BacktestParamsSchema } from './engine';
import { storedResultLimit, storedSizeProblem } from './limits';
import { storePagedResult } from './result-parts.server';
import { encodePagedResult, pagedLayout, pagedLightRead, RESULT_PART_ROWS, summaryOf } from './stored-result';
import type { ComputeReply, ComputeRequest } from './compute-protocol';
import { warmUpBacktestEngine } from './warm-up.server';

// The compute process's side of the protocol (compute-protocol.ts): one request at a time, each
// answered by progress messages and one final reply. After a run that left this process large,
// it exits so that its parent starts a fresh one for the next run (memory goes back to the OS).

/** The job worker that started this process. */
const parentPid = process.ppid;

/** The parent process id now (process.ppid keeps the one at start-up); null where /proc is not there. */
function currentParentPid(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The longest the process holds back its first run for the cache files (the 6,000 × 25 demo's took ~14 s). */
const PREFETCH_WAIT_MS = 60_000;

/**
 * The light part of a result with up to this many curve days and rebalances goes to the job worker
 * as it is stored, for a request waiting for the run: decoding the stored text was most of that
 * request's reading. (A 25-year daily run has ~12,600; its light part is a few MB to clone.)
 */
const HANDOVER_LIGHT_ROWS = 50_000;

/** Resident memory, besides the column caches it keeps warm, above which the process ends after its run. */
const RECYCLE_RSS_BYTES = 1.5 * 2 ** 30;

function send(reply: ComputeReply): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(reply, undefined, undefined, () => resolve());
  });
}

/**
 * A progress report, sent without waiting for it to be written: the channel keeps the messages
 * in order, and a run waiting for each write waited a turn of the event loop for every one (a
 * run of a few milliseconds reports three or four times).
 */
function report(id: string, fraction: number, message: string): Promise<void> {
  void send({ type: 'progress', id, fraction, message });
  return Promise.resolve();
}

async function handle(req: Extract<ComputeRequest, { type: 'run' }>): Promise<void> {
  let cancelled = false;
  const onCancel = (m: unknown) => {
    if ((m as { type?: string; id?: string }).type === 'cancel' && (m as { id: string }).id === req.id) cancelled = true;
  };
  process.on('message', onCancel);
  try {
    const screen = ScreenSchema.parse(req.screen);
    const params = BacktestParamsSchema.parse(req.params);
    const out = await computeBacktest(
      screen,
      params,
      (fraction, message) => report(req.id, fraction, message),
      () => cancelled,
    );
    void report(req.id, 0.995, 'Saving the result');
    // Stored from here: a large result (a daily run of hundreds of names is a hundred MB and
    // more) never crosses the IPC channel (a small light part goes along with the news of the
    // end), and the web process never writes it on its thread.
    // A parent that died meanwhile has lost the job's lease: the run is not this process's to
    // store. The IPC channel may not have noticed yet; being handed to another parent has.
    if (!process.connected || (currentParentPid() ?? parentPid) !== parentPid) process.exit(0);
    // Paged (stored-result.ts, format 4): the parts are written a few at a time, the light part
    // last, so no write holds the database long and a reader never sees half a result.
    // A job worker of an older version (this process is started from the files on disk) sends no key.
    const key = req.key ?? randomUUID();
    const fields = {
      summary: JSON.stringify(summaryOf(out.stored)),
      snapshotId: out.snapshotId,
      engineVersion: out.engineVersion,
      storedAt: new Date().toISOString(),
    };
    // The light part as a waiting request would read it back, with what the row will say, ahead
    // of encoding and storing: the request prepares its answer on its own core while this process
    // encodes and writes the result (on a backtest of a few milliseconds, both take about as
    // long), and sends it once it is stored. A result that is then not stored (too large, or
    // another run's) leaves the request waiting for the row as before.
    const layout = pagedLayout(out.stored);
    if (out.stored.dates.length + out.stored.rebalances.length <= HANDOVER_LIGHT_ROWS)
      void send({ type: 'storing', id: req.id, key, fields, light: pagedLightRead(out.stored, key, layout) });
    const encoded = encodePagedResult(out.stored, key, RESULT_PART_ROWS, layout);
    const size = encoded.parts.reduce((n, p) => n + p.data.length, encoded.light.length);
    // The bound on a stored result holds for the real size too (the estimate checked before the
    // run can be low for numbers that compress badly): the run fails, and nothing is stored.
    const limit = storedResultLimit();
    if (size > limit) throw new BacktestInputError(storedSizeProblem(size, false, limit));
    const stored = await storePagedResult(req.backtestId, key, encoded, fields);
    await send({ type: 'done', id: req.id, stored });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof BacktestCancelledError) await send({ type: 'failed', id: req.id, kind: 'cancelled', message });
    else if (e instanceof BacktestInputError) await send({ type: 'failed', id: req.id, kind: 'input', message });
    else if (isDomainError(e) && e.status < 500) await send({ type: 'failed', id: req.id, kind: 'input', message: e.detail });
    else if (e instanceof DomainError) await send({ type: 'failed', id: req.id, kind: 'error', message: e.detail });
    else await send({ type: 'failed', id: req.id, kind: 'error', message });
  } finally {
    process.off('message', onCancel);
  }
}

export function serveComputeRequests(): void {
  let busy: Promise<void> = Promise.resolve();
  let requests = 0;
  process.on('message', (m: unknown) => {
    const req = m as ComputeRequest;
    if (req.type !== 'run') return;
    const run = req;
    requests++;
    busy = busy.then(async () => {
      await handle(run);
      if (tooLarge()) process.exit(0);
    });
  });
  // The parent died or let go: nothing left to compute for.
  process.on('disconnect', () => process.exit(0));
  // Ready once the cache files every run reads exist (a request would wait for the same reads
  // anyway), or after PREFETCH_WAIT_MS at most: a store that answers slowly must not hold the
  // runs back. A missing store is said by the web process at start-up, and by a run's error.
  const prefetched = prefetchMarketInputs()
    .catch((e: unknown) => {
      if (!(isDomainError(e) && e.status === 503))
        console.warn(`[backtest] the compute process could not read the market data ahead: ${e instanceof Error ? e.message : String(e)}`);
    })
    .then(() => {
      // Kept in files only: what the reads built goes back before a quiet wait for the first
      // request (V8 would not collect it without allocations to prompt it). Not under a run that
      // started meanwhile (a prefetch past PREFETCH_WAIT_MS): it reads the same store.
      if (requests > 0) return;
      releaseMarketInputs();
      (globalThis as { gc?: () => void }).gc?.();
    });
  void Promise.race([prefetched, new Promise<void>((resolve) => setTimeout(resolve, PREFETCH_WAIT_MS).unref())])
    .then(() => send({ type: 'ready' }))
    .then(() =>
      // Until the first request: its first runs then find the engine already optimised.
      warmUpBacktestEngine(() => requests > 0).catch((e: unknown) => {
        console.warn(`[backtest] the compute process's warm-up failed: ${e instanceof Error ? e.message : String(e)}`);
      }),
    );
}

/** Whether the process is larger than it should stay after a run (garbage collected first when it can be). */
function tooLarge(): boolean {
  // The caches (a large store's price panel is most of a gigabyte) are what keeps runs fast:
  // only what comes on top of them counts.
  const limit = RECYCLE_RSS_BYTES + cachedColumnBytes();
  if (process.memoryUsage().rss <= limit) return false;
  // What a run left behind (its result, its scratch arrays) is garbage by now: the caches alone
  // are the size a warm process keeps.
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return true;
  gc();
  return process.memoryUsage().rss > limit;
}
