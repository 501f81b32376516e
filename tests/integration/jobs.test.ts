import { afterAll, expect, it } from 'vitest';
import { cancelJob, retryJob } from '~/services/jobs/control.server';
import { registerJobHandler, runJob, JobInputError, type JobContext } from '~/services/jobs/runner.server';
import { claimJob, getJob, insertJob } from '~/services/jobs/store.server';
import { closeJobQueue, startJobWorker } from '~/services/jobs/worker.server';
import { forEachDatabase } from '../support/databases';

// The job runner on both databases: leases, retries of transient failures, permanent failures,
// timeouts, cancel while queued and while running, and a retry from the operator.

const LEASE = 2_000;
let calls: Record<string, number> = {};

registerJobHandler('test-flaky', async (ctx) => {
  const n = (calls[ctx.job.id] = (calls[ctx.job.id] ?? 0) + 1);
  if (n < 2) throw new Error('connection reset');
  return { message: `ok after ${n}` };
});
registerJobHandler('test-bad-input', async () => {
  throw new JobInputError('The screen names a metric that does not exist');
});
/** Works until stopped: progress() throws once a cancel or the time limit stops it. */
async function spin(ctx: JobContext): Promise<{ message: string }> {
  for (let i = 0; ; i++) {
    await ctx.progress(Math.min(0.9, i / 100), `step ${i}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
registerJobHandler('test-forever', async (ctx) => spin(ctx));

forEachDatabase(
  'job runner',
  () => {
    afterAll(() => closeJobQueue());

    it('retries a transient failure and succeeds on the next attempt', async () => {
      calls = {};
      const job = await insertJob({ kind: 'test-flaky', payload: {}, timeoutMs: 10_000 });
      expect(await runJob(job.id, 'w1', LEASE)).toBe('queued');
      const between = await getJob(job.id);
      expect(between).toMatchObject({ status: 'queued', attempts: 1, error: 'connection reset' });
      expect(await runJob(job.id, 'w1', LEASE)).toBe('succeeded');
      expect(await getJob(job.id)).toMatchObject({ status: 'succeeded', attempts: 2, progress: 1, message: 'ok after 2', locked_by: null });
    });

    it('fails bad input at once, without retries', async () => {
      const job = await insertJob({ kind: 'test-bad-input', payload: {}, timeoutMs: 10_000 });
      expect(await runJob(job.id, 'w1', LEASE)).toBe('failed');
      expect(await getJob(job.id)).toMatchObject({ status: 'failed', attempts: 1, error: 'The screen names a metric that does not exist' });
    });

    it('fails an unknown kind with a message', async () => {
      const job = await insertJob({ kind: 'test-nobody', payload: {}, timeoutMs: 10_000 });
      expect(await runJob(job.id, 'w1', LEASE)).toBe('failed');
      expect((await getJob(job.id))?.error).toContain('No handler');
    });

    it('stops a job at its time limit', async () => {
      const job = await insertJob({ kind: 'test-forever', payload: {}, timeoutMs: 300, maxAttempts: 5 });
      expect(await runJob(job.id, 'w1', LEASE)).toBe('failed');
      expect(await getJob(job.id)).toMatchObject({ status: 'failed', attempts: 1, message: 'Timed out' });
      expect((await getJob(job.id))?.error).toContain('time limit');
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

    it('cancels a queued job at once and a running one at its next step; a retry queues it again', async () => {
      const queued = await insertJob({ kind: 'test-forever', payload: {}, timeoutMs: 60_000 });
      expect((await cancelJob(queued.id)).status).toBe('cancelled');
      expect(await runJob(queued.id, 'w1', LEASE)).toBe('not-claimed');

      const running = await insertJob({ kind: 'test-forever', payload: {}, timeoutMs: 60_000 });
      const outcome = runJob(running.id, 'w1', LEASE);
      await new Promise((r) => setTimeout(r, 100));
      expect((await getJob(running.id))?.status).toBe('running');
      await cancelJob(running.id);
      expect(await outcome).toBe('cancelled');
      expect((await getJob(running.id))?.status).toBe('cancelled');

      expect((await retryJob(running.id)).status).toBe('queued');
      expect(await getJob(running.id)).toMatchObject({ attempts: 0, error: null, cancel_requested: 0 });
      await cancelJob(running.id);
    await expect(cancelJob('no-such-job')).rejects.toMatchObject({ status: 404 });
    });

    it('the polling worker picks up a queued job by itself', async () => {
      calls = {};
      const worker = startJobWorker();
      try {
        const job = await insertJob({ kind: 'test-flaky', payload: {}, timeoutMs: 10_000 });
        for (let i = 0; i < 100 && (await getJob(job.id))?.status !== 'succeeded'; i++) await new Promise((r) => setTimeout(r, 100));
        expect((await getJob(job.id))?.status).toBe('succeeded');
      } finally {
        await worker.stop();
      }
    });
  },
  { env: { REDIS_URL: undefined } },
);
