import { afterAll, expect, it } from 'vitest';
import { z } from 'zod';
import { cancelJob, retryJob } from '~/services/jobs/control.server';
import { defineJob, JobInputError, jobRegistry, type JobContext } from '~/services/jobs/registry';
import { runJob } from '~/services/jobs/runner.server';
import { claimJob, getJob, insertJob, listJobs } from '~/services/jobs/store.server';
import { enqueueDueJobs, periodJobId } from '~/services/jobs/schedule.server';
import { closeJobQueue, enqueueJob, startJobWorker } from '~/services/jobs/queue.server';
import { forEachDatabase } from '../support/databases';
import { until } from '../support/until';

// The job runner on both databases: leases, retries of transient failures, permanent failures,
// timeouts, cancel while queued and while running, and a retry from the operator.

const LEASE = 2_000;
let calls: Record<string, number> = {};

/** Works until stopped: progress() throws once a cancel or the time limit stops it. */
async function spin(ctx: JobContext): Promise<{ message: string }> {
  for (let i = 0; ; i++) {
    await ctx.progress(Math.min(0.9, i / 100), `step ${i}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
let recurringOn = true;
const seen: { n: number }[] = [];

const TEST_JOBS = jobRegistry([
  defineJob({
    kind: 'test-flaky',
    payload: z.unknown(),
    async run(_payload, ctx) {
      const n = (calls[ctx.job.id] = (calls[ctx.job.id] ?? 0) + 1);
      if (n < 2) throw new Error('connection reset');
      return { message: `ok after ${n}` };
    },
  }),
  defineJob({
    kind: 'test-bad-input',
    payload: z.unknown(),
    run: async () => {
      throw new JobInputError('The screen names a metric that does not exist');
    },
  }),
  defineJob({ kind: 'test-forever', payload: z.unknown(), run: (_payload, ctx) => spin(ctx) }),
  // Waits on work that reports no progress (as a run in another process does) until told to stop.
  defineJob({
    kind: 'test-silent',
    payload: z.unknown(),
    run: (_payload, ctx) =>
      new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('abandoned')), { once: true })),
  }),
  defineJob({
    kind: 'test-typed',
    payload: z.object({ n: z.number().int() }),
    async run(payload) {
      seen.push(payload);
      return { message: `n = ${payload.n}` };
    },
  }),
  defineJob({
    kind: 'test-recurring',
    payload: z.object({}),
    run: async () => ({ message: 'ran' }),
    recurring: { everyMs: 3_600_000, timeoutMs: 10_000, enabled: () => recurringOn },
  }),
]);

it('a registry refuses two job types of one kind', () => {
  const job = defineJob({ kind: 'twice', payload: z.unknown(), run: async () => ({ message: 'ok' }) });
  expect(() => jobRegistry([job, job])).toThrow('Two job types share the kind "twice"');
});

forEachDatabase(
  'job runner',
  () => {
    afterAll(() => closeJobQueue());

    it('retries a transient failure and succeeds on the next attempt', async () => {
      calls = {};
      const job = await insertJob({ kind: 'test-flaky', payload: {}, timeoutMs: 10_000 });
      expect(await runJob(job.id, 'w1', LEASE, TEST_JOBS)).toBe('queued');
      const between = await getJob(job.id);
      expect(between).toMatchObject({ status: 'queued', attempts: 1, error: 'connection reset' });
      expect(await runJob(job.id, 'w1', LEASE, TEST_JOBS)).toBe('succeeded');
      expect(await getJob(job.id)).toMatchObject({ status: 'succeeded', attempts: 2, progress: 1, message: 'ok after 2', locked_by: null });
    });

    it('fails bad input at once, without retries', async () => {
      const job = await insertJob({ kind: 'test-bad-input', payload: {}, timeoutMs: 10_000 });
      expect(await runJob(job.id, 'w1', LEASE, TEST_JOBS)).toBe('failed');
      expect(await getJob(job.id)).toMatchObject({ status: 'failed', attempts: 1, error: 'The screen names a metric that does not exist' });
    });

    it('fails an unknown kind with a message', async () => {
      const job = await insertJob({ kind: 'test-nobody', payload: {}, timeoutMs: 10_000 });
      expect(await runJob(job.id, 'w1', LEASE, TEST_JOBS)).toBe('failed');
      expect((await getJob(job.id))?.error).toContain('No handler');
    });

    it('hands the handler its payload as its schema reads it, and fails a payload the schema refuses at once', async () => {
      const good = await insertJob({ kind: 'test-typed', payload: { n: 7 }, timeoutMs: 10_000 });
      expect(await runJob(good.id, 'w1', LEASE, TEST_JOBS)).toBe('succeeded');
      expect(seen).toContainEqual({ n: 7 });
      expect((await getJob(good.id))?.message).toBe('n = 7');
      const bad = await insertJob({ kind: 'test-typed', payload: { n: 'seven' }, timeoutMs: 10_000, maxAttempts: 3 });
      expect(await runJob(bad.id, 'w1', LEASE, TEST_JOBS)).toBe('failed');
      expect(await getJob(bad.id)).toMatchObject({ status: 'failed', attempts: 1 });
      expect((await getJob(bad.id))?.error).toMatch(/^Not a test-typed job: /);
    });

    it('stops a job at its time limit', async () => {
      const job = await insertJob({ kind: 'test-forever', payload: {}, timeoutMs: 300, maxAttempts: 5 });
      expect(await runJob(job.id, 'w1', LEASE, TEST_JOBS)).toBe('failed');
      expect(await getJob(job.id)).toMatchObject({ status: 'failed', attempts: 1, message: 'Timed out' });
      expect((await getJob(job.id))?.error).toContain('time limit');
    });

    it('stops a job that reports no progress at its time limit, and when cancelled while it runs', async () => {
      const timed = await insertJob({ kind: 'test-silent', payload: {}, timeoutMs: 300, maxAttempts: 5 });
      expect(await runJob(timed.id, 'w1', LEASE, TEST_JOBS)).toBe('failed');
      expect(await getJob(timed.id)).toMatchObject({ status: 'failed', attempts: 1, message: 'Timed out' });
      const running = await insertJob({ kind: 'test-silent', payload: {}, timeoutMs: 60_000 });
      const outcome = runJob(running.id, 'w1', LEASE, TEST_JOBS);
      await until(async () => (await getJob(running.id))?.status === 'running', 'the job to start');
      await cancelJob(running.id);
      expect(await outcome).toBe('cancelled');
    });

    it('gives a job to one worker at a time, and to another once the lease lapses', async () => {
      const job = await insertJob({ kind: 'test-flaky', payload: {}, timeoutMs: 10_000 });
      const now = Date.now();
      expect(await claimJob(job.id, 'w1', LEASE, now)).not.toBeNull();
      expect(await claimJob(job.id, 'w2', LEASE, now + 10)).toBeNull();
      expect((await claimJob(job.id, 'w2', LEASE, now + LEASE + 1))?.locked_by).toBe('w2');
    });

    it('enqueueing the same id twice gives one job', async () => {
      const a = await insertJob({ id: 'fixed-id-1', kind: 'test-flaky', payload: { n: 1 }, timeoutMs: 1_000 });
      const b = await insertJob({ id: 'fixed-id-1', kind: 'test-flaky', payload: { n: 2 }, timeoutMs: 1_000 });
      expect(b.payload).toBe(a.payload);
    });

    it('enqueues a job with the rows it reads in one commit: a failed write leaves neither', async () => {
      const { getDb } = await import('~/services/db/db.server');
      const db = await getDb();
      const page = (scope: string) => db.selectFrom('page_versions').select('version').where('scope', '=', scope).executeTakeFirst();
      const job = await enqueueJob(
        { id: 'with-rows-1', kind: 'test-typed', payload: { n: 1 }, timeoutMs: 1_000 },
        {
          with: (trx) =>
            trx
              .insertInto('page_versions')
              .values({ scope: 'jobs-test-a', version: 7 })
              .execute()
              .then(() => undefined),
        },
      );
      expect(job).toMatchObject({ id: 'with-rows-1', status: 'queued' });
      expect(await page('jobs-test-a')).toEqual({ version: 7 });
      await expect(
        enqueueJob(
          { id: 'with-rows-2', kind: 'test-typed', payload: { n: 2 }, timeoutMs: 1_000 },
          {
            with: async (trx) => {
              await trx.insertInto('page_versions').values({ scope: 'jobs-test-b', version: 1 }).execute();
              // The same scope again: the primary key refuses it, and the whole write with it.
              await trx.insertInto('page_versions').values({ scope: 'jobs-test-b', version: 2 }).execute();
            },
          },
        ),
      ).rejects.toThrow();
      expect(await page('jobs-test-b')).toBeUndefined();
      expect(await getJob('with-rows-2')).toBeUndefined();
    });

    it('cancels a queued job at once and a running one at its next step; a retry queues it again', async () => {
      const queued = await insertJob({ kind: 'test-forever', payload: {}, timeoutMs: 60_000 });
      expect((await cancelJob(queued.id)).to).toBe('cancelled');
      expect(await runJob(queued.id, 'w1', LEASE, TEST_JOBS)).toBe('not-claimed');

      const running = await insertJob({ kind: 'test-forever', payload: {}, timeoutMs: 60_000 });
      const outcome = runJob(running.id, 'w1', LEASE, TEST_JOBS);
      await until(async () => (await getJob(running.id))?.status === 'running', 'the job to start');
      await cancelJob(running.id);
      expect(await outcome).toBe('cancelled');
      expect((await getJob(running.id))?.status).toBe('cancelled');

      expect((await retryJob(running.id)).to).toBe('queued');
      expect(await getJob(running.id)).toMatchObject({ attempts: 0, error: null, cancel_requested: 0 });
      await cancelJob(running.id);
      await expect(cancelJob('no-such-job')).rejects.toMatchObject({ status: 404 });
    });

    it('enqueues a recurring job once per period, however often the schedule is checked', async () => {
      const t = Date.parse('2026-11-22T10:15:00Z');
      const count = async () => (await listJobs({ limit: 1000 })).filter((j) => j.kind === 'test-recurring').length;
      expect(await enqueueDueJobs(TEST_JOBS, t)).toContain('test-recurring@2026-11-22T10:00:00.000Z');
      await enqueueDueJobs(TEST_JOBS, t + 60_000);
      expect(await count()).toBe(1);
      await enqueueDueJobs(TEST_JOBS, t + 3_600_000);
      expect(await count()).toBe(2);
      recurringOn = false;
      expect(await enqueueDueJobs(TEST_JOBS, t + 7_200_000)).not.toContain(
        periodJobId({ kind: 'test-recurring', everyMs: 3_600_000 }, t + 7_200_000),
      );
      expect(await count()).toBe(2);
      // Cancelled, so the worker of the next test has only its own job to run.
      for (const j of await listJobs({ statuses: ['queued'], limit: 1000 })) if (j.kind === 'test-recurring') await cancelJob(j.id);
      recurringOn = true;
    });

    it('a job enqueued in this process is handed to its sleeping workers, and run by one of them once', async () => {
      seen.length = 0;
      const workers = [startJobWorker(TEST_JOBS), startJobWorker(TEST_JOBS)];
      try {
        // Both have looked at the table and gone to sleep before the job comes.
        await new Promise((r) => setTimeout(r, 300));
        const jobs = [];
        for (const n of [41, 42, 43]) jobs.push(await enqueueJob({ kind: 'test-typed', payload: { n }, timeoutMs: 10_000 }));
        for (const job of jobs)
          await until(async () => (await getJob(job.id))?.status === 'succeeded', 'the workers to run the jobs', 20_000);
        // Each once (jobs an earlier test left queued may run too).
        expect(
          seen
            .map((p) => p.n)
            .filter((n) => n > 40)
            .sort(),
        ).toEqual([41, 42, 43]);
        for (const job of jobs) expect((await getJob(job.id))?.attempts).toBe(1);
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
      }
    });

    it('the polling worker picks up a queued job by itself', async () => {
      calls = {};
      const worker = startJobWorker(TEST_JOBS);
      try {
        const job = await insertJob({ kind: 'test-flaky', payload: {}, timeoutMs: 10_000 });
        await until(async () => (await getJob(job.id))?.status === 'succeeded', 'the worker to run the job', 20_000);
        expect((await getJob(job.id))?.status).toBe('succeeded');
      } finally {
        await worker.stop();
      }
    });
  },
  { env: { REDIS_URL: undefined } },
);
