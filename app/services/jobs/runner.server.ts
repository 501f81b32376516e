import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { isDomainError } from '../http/errors';
import { JobInputError, JobStoppedError, type JobContext, type JobRegistry } from './registry';
import { claimJob, finishJob, heartbeat, type JobRow } from './store.server';

// Runs one claimed job: renews its lease while the handler works, turns the handler's end into
// the row's status, and retries transient failures. Handlers are idempotent: a job re-run after
// a crash (or re-delivered by BullMQ) must store the same result or find it already stored.

export type RunOutcome = JobRow['status'] | 'not-claimed' | 'lost';

/** Progress (and a cancel request) reaches the jobs table at most this often, besides the lease renewals. */
export const PROGRESS_WRITE_MS = 250;

export function workerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

function storedPayload(job: JobRow): unknown {
  try {
    return JSON.parse(job.payload) as unknown;
  } catch {
    throw new JobInputError('The stored payload is not JSON');
  }
}

/** Claims job `id` and runs it with its kind's handler from `jobs`. */
export async function runJob(id: string, worker: string, leaseMs: number, jobs: JobRegistry): Promise<RunOutcome> {
  const job = await claimJob(id, worker, leaseMs);
  if (!job) return 'not-claimed';
  const type = jobs.get(job.kind);
  if (!type) {
    await finishJob(id, worker, { status: 'failed', message: 'Failed', error: `No handler for jobs of kind "${job.kind}"` });
    return 'failed';
  }
  const deadline = Date.now() + job.timeout_ms;
  let cancelled = false;
  let lost = false;
  let last = { fraction: 0, message: 'Started' };
  let beating: Promise<void> | null = null;
  const beat = () => {
    beating ??= heartbeat(id, worker, leaseMs, last)
      .then((r) => {
        lost ||= !r.owned;
        cancelled ||= r.cancelRequested;
      })
      .catch(() => undefined)
      .finally(() => {
        beating = null;
      });
    return beating;
  };
  const timedOut = () => Date.now() > deadline;
  const stopping = () => cancelled || lost || timedOut();
  const stop = new AbortController();
  // A handler may hold the event loop for a while (a pure engine step); the timer renews the
  // lease whenever it gets a turn, well before the lease could lapse, and tells a handler that
  // waits without reporting progress when to stop.
  const timer = setInterval(
    () =>
      void beat().then(() => {
        if (stopping()) stop.abort();
      }),
    Math.max(200, Math.floor(leaseMs / 4)),
  );
  // Progress is written at most every PROGRESS_WRITE_MS (each write is a database commit, which a
  // short job would otherwise spend most of its time on); the lease timer writes it as well. The
  // claim has just written the row: a job done within the interval writes no progress at all.
  let lastWrite = Date.now();
  const ctx: JobContext = {
    job,
    signal: stop.signal,
    shouldStop: stopping,
    async progress(fraction, message) {
      last = { fraction, message };
      if (Date.now() - lastWrite >= PROGRESS_WRITE_MS) {
        lastWrite = Date.now();
        await beat();
      }
      if (ctx.shouldStop()) throw new JobStoppedError();
    },
    async checkpoint() {
      // A write already in flight may have been sent before the cancel: wait for it, then ask again.
      await beating;
      await beat();
      if (ctx.shouldStop()) throw new JobStoppedError();
    },
  };
  try {
    const out = await type.handle(ctx, storedPayload(job));
    if (lost) return 'lost';
    await finishJob(id, worker, { status: 'succeeded', message: out.message });
    return 'succeeded';
  } catch (error) {
    if (lost) return 'lost';
    if (timedOut()) {
      await finishJob(id, worker, {
        status: 'failed',
        message: 'Timed out',
        error: `Stopped after the time limit of ${Math.round(job.timeout_ms / 1000)} s`,
      });
      return 'failed';
    }
    if (cancelled) {
      await finishJob(id, worker, { status: 'cancelled', message: 'Cancelled' });
      return 'cancelled';
    }
    const text = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof JobInputError || (isDomainError(error) && error.status < 500);
    if (!permanent && job.attempts < job.max_attempts) {
      await finishJob(id, worker, { status: 'queued', message: `Attempt ${job.attempts} failed; it will be retried`, error: text });
      return 'queued';
    }
    if (!permanent) console.warn(`[jobs] job ${id} (${job.kind}) failed after ${job.attempts} attempts: ${text}`);
    await finishJob(id, worker, { status: 'failed', message: 'Failed', error: text });
    return 'failed';
  } finally {
    clearInterval(timer);
    await beating;
  }
}
