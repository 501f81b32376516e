import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { getDb } from '../db/db.server';
import { defineJob, JobInputError, type JobContext } from '../jobs/registry';
import { computeInChild, stopComputeProcess, warmUpComputeProcess } from './compute-process.server';
import { BacktestCancelledError } from './engine';
import { keepHandedOverLight } from './kept-lights.server';
import { removeUnusedParts } from './result-parts.server';
import { announceRunStored, announceRunStoring } from './stored-news.server';
import type { StoredLightPart } from './stored-result';

// The backtest job: read the stored request, have the compute process (compute-process.server.ts)
// read the market data, run the engine and the survivors-only comparison, encode the result and
// store it (paged: its parts, then the light part in one small update). The job's own process
// only relays progress and removes the parts of runs that died, so an app process running it
// keeps answering pages. Re-running it (a crash, a BullMQ
// re-delivery) recomputes the same numbers from the same stored inputs; a stored result is never
// recomputed.

export const BACKTEST_JOB_TIMEOUT_MS = 10 * 60_000;

const BacktestJobPayloadSchema = z.object({ backtestId: z.string().min(1) });
type BacktestJobPayload = z.infer<typeof BacktestJobPayloadSchema>;

async function runBacktestJob({ backtestId }: BacktestJobPayload, ctx: JobContext): Promise<{ message: string }> {
  const db = await getDb();
  // The summary is written with the result: the result itself (tens of MB) is not read here.
  const row = await db
    .selectFrom('backtests')
    .select(['id', 'screen', 'params', 'summary'])
    .where('id', '=', backtestId)
    .executeTakeFirst();
  if (!row) throw new JobInputError(DELETED);
  if (row.summary) return { message: 'Done' };
  // Parts a run of this job that died (killed, timed out) left behind are removed by the run that
  // stores the result, not before it: the run that died may be an attempt whose lease lapsed and
  // that is still writing them.
  const key = randomUUID();
  // Stopped, lost or failed midway: what this run stored of its parts goes, and only that (an
  // attempt that took the job over meanwhile may be writing its own).
  const removeOwnParts = () => removeUnusedParts(backtestId, { runKey: key }).catch(() => undefined);
  // Stopped (cancelled, timed out, lease lost) while the compute process reports nothing (a long
  // computed window): the run is abandoned with its process, as when a progress report stops it.
  const abandon = () => stopComputeProcess();
  ctx.signal.addEventListener('abort', abandon, { once: true });
  const outcome = await computeInChild(
    { backtestId, key, screen: JSON.parse(row.screen), params: JSON.parse(row.params) },
    (f, m) => ctx.progress(f, m),
    (storing) => {
      keepHandedOverLight(storing.key, storing.light as StoredLightPart);
      announceRunStoring(backtestId, { light: storing.light, key: storing.key, fields: storing.fields });
    },
  )
    .catch(async (e: unknown) => {
      await removeOwnParts();
      throw e;
    })
    .finally(() => ctx.signal.removeEventListener('abort', abandon));
  if (outcome.type === 'failed') {
    await removeOwnParts();
    if (outcome.kind === 'cancelled') throw new BacktestCancelledError();
    if (outcome.kind === 'input') throw new JobInputError(outcome.message);
    throw new Error(outcome.message);
  }
  if (!outcome.stored) return afterUnstoredRun(backtestId);
  // Stored: the row reads "succeeded" from now on, whatever the job's own row says yet.
  announceRunStored(backtestId);
  return { message: 'Done' };
}

const DELETED = 'The backtest was deleted';
export const NOT_STORED = 'The result of the run could not be stored';

/**
 * A run whose result the row did not take: done when the backtest is gone or holds another run's
 * result; else an error the job runner retries, so the job never reads "succeeded" over a row
 * without a result.
 */
export async function afterUnstoredRun(backtestId: string): Promise<{ message: string }> {
  const db = await getDb();
  const row = await db.selectFrom('backtests').select(['summary']).where('id', '=', backtestId).executeTakeFirst();
  if (!row) throw new JobInputError(DELETED);
  if (row.summary !== null) {
    announceRunStored(backtestId);
    return { message: 'Done' };
  }
  throw new Error(NOT_STORED);
}

export const backtestJob = defineJob({
  kind: 'backtest',
  payload: BacktestJobPayloadSchema,
  run: runBacktestJob,
  worker: { start: warmUpComputeProcess, stop: stopComputeProcess },
});
