import { getDb, type DB } from '../db/db.server';
import type { JobStatus } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { redispatchJob } from './queue.server';

// Retry and cancel, done on the jobs table itself: the table is the queue's source of truth, and
// the queue picks queued rows up (in-process workers claim them with a lease; with Redis the
// worker still checks the row). A running job sees cancel_requested at its next step and stops.
// Each change is a conditional UPDATE, so a worker claiming or finishing the job at the same
// moment cannot be overwritten: whichever comes second finds the status changed.

export type JobControlOutcome = { id: string; kind: string; from: JobStatus; to: JobStatus; cancelRequested: boolean };

async function currentJob(db: DB, jobId: string): Promise<{ kind: string; status: JobStatus }> {
  const row = await db.selectFrom('jobs').select(['kind', 'status']).where('id', '=', jobId).executeTakeFirst();
  if (!row) throw notFound('Job not found.');
  return row;
}

/** A failed or cancelled job goes back to the queue with its attempts reset and its error cleared. */
export async function retryJob(jobId: string, db?: DB): Promise<JobControlOutcome> {
  const d = db ?? (await getDb());
  const job = await currentJob(d, jobId);
  const now = new Date().toISOString();
  const result = await d
    .updateTable('jobs')
    .set({
      status: 'queued',
      attempts: 0,
      error: null,
      progress: 0,
      message: null,
      cancel_requested: 0,
      locked_by: null,
      locked_until: null,
      started_at: null,
      finished_at: null,
      updated_at: now,
    })
    .where('id', '=', jobId)
    .where('status', 'in', ['failed', 'cancelled'])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    const { status } = await currentJob(d, jobId);
    throw conflict(`Only a failed or cancelled job can be retried; this one is ${status}.`);
  }
  // With BullMQ the workers wait for a delivery (a retry inside an uncommitted transaction may be
  // delivered too early; the workers' sweep then delivers it again within seconds).
  await redispatchJob(jobId).catch(() => undefined);
  return { id: jobId, kind: job.kind, from: job.status, to: 'queued', cancelRequested: false };
}

/** A queued job is cancelled at once; a running one is asked to stop (cancel_requested = 1). */
export async function cancelJob(jobId: string, db?: DB): Promise<JobControlOutcome> {
  const d = db ?? (await getDb());
  const job = await currentJob(d, jobId);
  const now = new Date().toISOString();
  const dequeued = await d
    .updateTable('jobs')
    .set({ status: 'cancelled', message: 'Cancelled before it started.', finished_at: now, updated_at: now })
    .where('id', '=', jobId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  if (Number(dequeued.numUpdatedRows) > 0) {
    return { id: jobId, kind: job.kind, from: 'queued', to: 'cancelled', cancelRequested: false };
  }
  // Not queued (any more): a worker may have just claimed it, so ask the running job to stop.
  const asked = await d
    .updateTable('jobs')
    .set({ cancel_requested: 1, updated_at: now })
    .where('id', '=', jobId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  if (Number(asked.numUpdatedRows) > 0) {
    return { id: jobId, kind: job.kind, from: 'running', to: 'running', cancelRequested: true };
  }
  const { status } = await currentJob(d, jobId);
  throw conflict(`Only a queued or running job can be cancelled; this one is ${status}.`);
}
