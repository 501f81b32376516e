import { setImmediate as nextTurn } from 'node:timers/promises';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { config } from '../config.server';
import { getDb, type DbTransaction } from '../db/db.server';
import type { JobRegistry } from './registry';
import { runJob, workerId, type RunOutcome } from './runner.server';
import { startSchedule } from './schedule.server';
import { claimableJobIds, getJob, insertJob, type JobRow, type NewJob } from './store.server';

// Two ways to deliver jobs: without Redis, workers poll the jobs table (the app
// process is one); with REDIS_URL, BullMQ delivers job ids to `npm run worker` processes on any
// machine (and to the app unless JOBS_IN_APP=0). Either way the jobs table decides who runs a
// job and whether it is done, so a delivery twice over, or a sweep that re-adds a job, is safe.

const QUEUE = 'jobs';
const POLL_MS = 1_000;
const SWEEP_MS = 15_000;

let queue: Queue | null = null;

function bullConnection(url: string): Redis {
  // BullMQ needs blocking commands without a retry limit.
  return new Redis(url, { maxRetriesPerRequest: null });
}

function bullQueue(): Queue | null {
  const c = config();
  if (!c.redisUrl) return null;
  queue ??= new Queue(QUEUE, { connection: bullConnection(c.redisUrl), prefix: c.jobs.queuePrefix });
  return queue;
}

async function dispatch(id: string): Promise<void> {
  const q = bullQueue();
  if (q) {
    // The job id doubles as BullMQ's id: adding an id that is waiting or active is a no-op.
    await q.add('run', { id }, { jobId: id, removeOnComplete: true, removeOnFail: true, attempts: 1 });
    return;
  }
  for (const w of pollers) w.wake(id);
}

/**
 * Stores the job and hands it to a worker. `with`: rows the job reads, written in the same
 * transaction (one commit for both, and no job without them), before any worker can see it.
 */
export async function enqueueJob(job: NewJob, opts: { with?: (trx: DbTransaction) => Promise<void> } = {}): Promise<JobRow> {
  const together = opts.with;
  const row = together
    ? await (await getDb()).transaction().execute(async (trx) => {
        await together(trx);
        return insertJob(job, Date.now(), trx);
      })
    : await insertJob(job);
  await dispatch(row.id);
  return row;
}

/** Puts a job that was sent back to the queue (retry) in front of the workers again. */
export async function redispatchJob(id: string): Promise<void> {
  await dispatch(id);
}

export type JobWorker = { stop(): Promise<void>; readonly id: string };

/** Workers polling in this process; `wake(id)` hands one the job just stored (it claims it without looking). */
const pollers = new Set<{ wake(jobId?: string): void }>();

/** Polls the jobs table; one job at a time (the engines are CPU-bound). */
function pollingWorker(leaseMs: number, jobs: JobRegistry): JobWorker {
  const id = workerId();
  let running = true;
  /** Ends the worker's sleep (null while it is not sleeping). */
  let wakeUp: (() => void) | null = null;
  /**
   * A job stored by this process while the worker slept: the worker had found nothing to claim, so
   * this one is claimed at once, without a look at the table (a job waits for its worker's next
   * look only while the worker is busy, and then the table's order holds).
   */
  let handed: string | null = null;
  /** Woken while looking: the look may have missed the job, so the worker looks again instead of sleeping. */
  let nudged = false;
  const waker = {
    wake(jobId?: string) {
      if (!wakeUp) {
        nudged = true;
        return;
      }
      if (jobId !== undefined) handed ??= jobId;
      wakeUp();
    },
  };
  pollers.add(waker);
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (nudged) return resolve();
      const done = () => {
        clearTimeout(t);
        wakeUp = null;
        resolve();
      };
      const t = setTimeout(done, ms);
      wakeUp = done;
    });
  const loop = (async () => {
    while (running) {
      let ran = false;
      nudged = false;
      try {
        // Another worker may have taken the job handed over: then the table says what is left.
        const first = handed;
        handed = null;
        if (first !== null && running) ran = (await runJob(first, id, leaseMs, jobs)) !== 'not-claimed';
        if (!ran)
          for (const jobId of await claimableJobIds(5)) {
            if (!running) break;
            if ((await runJob(jobId, id, leaseMs, jobs)) !== 'not-claimed') {
              ran = true;
              break;
            }
          }
      } catch (error) {
        console.warn(`[jobs] worker ${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
      // After a job, a turn of the event loop before the next look: a request waiting for that
      // job's end (a backtest POST) writes its answer first.
      if (ran) await nextTurn();
      else if (running) await sleep(POLL_MS);
    }
  })();
  return {
    id,
    async stop() {
      running = false;
      pollers.delete(waker);
      waker.wake();
      await loop;
    },
  };
}

/** Runs a delivered job to an end, including the retries the table asks for. */
async function runDelivered(jobId: string, worker: string, leaseMs: number, jobs: JobRegistry): Promise<RunOutcome> {
  // A re-delivery can arrive before the dead worker's lease has lapsed: wait it out.
  const until = Date.now() + leaseMs * 2 + 1_000;
  for (;;) {
    const outcome = await runJob(jobId, worker, leaseMs, jobs);
    if (outcome === 'queued') continue;
    if (outcome !== 'not-claimed' || Date.now() > until) return outcome;
    const row = await getJob(jobId);
    if (!row || row.status !== 'running') return outcome;
    await new Promise((r) => setTimeout(r, Math.min(1_000, leaseMs / 2)));
  }
}

function bullWorker(url: string, prefix: string, leaseMs: number, jobs: JobRegistry): JobWorker {
  const id = workerId();
  const worker = new Worker<{ id: string }>(QUEUE, async (job) => runDelivered(job.data.id, id, leaseMs, jobs), {
    connection: bullConnection(url),
    prefix,
    concurrency: 1,
    lockDuration: leaseMs,
    stalledInterval: Math.max(1_000, Math.floor(leaseMs / 2)),
    maxStalledCount: 10,
  });
  worker.on('error', (e) => console.warn(`[jobs] BullMQ worker ${id}: ${e.message}`));
  // Redis keeps nothing on disk here: a job whose delivery was lost is put back from the table.
  const sweep = setInterval(() => {
    void (async () => {
      for (const jobId of await claimableJobIds(50)) await dispatch(jobId);
    })().catch(() => undefined);
  }, SWEEP_MS);
  void (async () => {
    for (const jobId of await claimableJobIds(50)) await dispatch(jobId);
  })().catch(() => undefined);
  return {
    id,
    async stop() {
      clearInterval(sweep);
      await worker.close();
    },
  };
}

/**
 * A worker for this process running the kinds in `jobs`: BullMQ with REDIS_URL, else the table
 * poller; plus the schedule of the recurring ones.
 */
export function startJobWorker(jobs: JobRegistry): JobWorker {
  const c = config();
  const worker = c.redisUrl ? bullWorker(c.redisUrl, c.jobs.queuePrefix, c.jobs.leaseMs, jobs) : pollingWorker(c.jobs.leaseMs, jobs);
  const stopSchedule = startSchedule(jobs);
  for (const h of jobs.workerHooks) h.start();
  return {
    id: worker.id,
    async stop() {
      stopSchedule();
      await worker.stop();
      for (const h of jobs.workerHooks) h.stop();
    },
  };
}

/** Closes the BullMQ queue connection (tests, shutdown). */
export async function closeJobQueue(): Promise<void> {
  const q = queue;
  queue = null;
  await q?.close();
}
