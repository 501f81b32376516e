import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { getDb, withoutDiskWait, type DbExecutor } from '../db/db.server';
import type { JobStatus, JobsTable } from '../db/schema';

// The jobs table is the queue's source of truth for both backends (migration 003). A worker owns
// a running job only while its lease (locked_until) is in the future and renews it while it
// works, so a worker that dies (kill -9, lost machine) loses the job to the next worker once the
// lease lapses. Every transition is one conditional UPDATE, so two workers never both win.
// A worker's writes (claim, lease renewal, end) do not wait for the disk (withoutDiskWait): one a
// power cut undoes leaves the job running under a lease that lapses, and it runs again.

export type JobRow = Selectable<JobsTable>;

const iso = (ms: number) => new Date(ms).toISOString();

export type NewJob = {
  kind: string;
  payload: unknown;
  userId?: string | null;
  /** Stable id: enqueueing the same id twice gives one job. */
  id?: string;
  maxAttempts?: number;
  timeoutMs: number;
};

export async function insertJob(job: NewJob, now = Date.now(), db: DbExecutor | null = null): Promise<JobRow> {
  const conn = db ?? (await getDb());
  const row: JobRow = {
    id: job.id ?? randomUUID(),
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    user_id: job.userId ?? null,
    status: 'queued',
    progress: 0,
    message: 'Waiting for a worker',
    attempts: 0,
    max_attempts: job.maxAttempts ?? 3,
    timeout_ms: job.timeoutMs,
    cancel_requested: 0,
    locked_by: null,
    locked_until: null,
    error: null,
    created_at: iso(now),
    started_at: null,
    finished_at: null,
    updated_at: iso(now),
  };
  // The row as inserted; when the id was taken (the same job enqueued again), the row that holds it.
  const inserted = await conn
    .insertInto('jobs')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
  return inserted ?? (await getJob(row.id, conn)) ?? row;
}

export async function getJob(id: string, db: DbExecutor | null = null): Promise<JobRow | undefined> {
  return (db ?? (await getDb())).selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Takes the job for `worker` when it is queued, or running under a lapsed lease (its worker
 * died). Returns the row as claimed, or null when someone else holds it or it is finished.
 */
export async function claimJob(id: string, worker: string, leaseMs: number, now = Date.now()): Promise<JobRow | null> {
  const result = await withoutDiskWait((db) =>
    db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        locked_by: worker,
        locked_until: iso(now + leaseMs),
        attempts: eb('attempts', '+', 1),
        started_at: iso(now),
        message: 'Started',
        updated_at: iso(now),
      }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('locked_until', '<', iso(now))])]))
      // The row as claimed, in the same statement (SQLite and PostgreSQL both return it).
      .returningAll()
      .executeTakeFirst(),
  );
  return result && result.locked_by === worker ? result : null;
}

/** Ids of jobs a worker could claim now, oldest first. */
export async function claimableJobIds(limit: number, now = Date.now()): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom('jobs')
    .select('id')
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('locked_until', '<', iso(now))])]))
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Renews the lease and records progress. Returns whether the worker still owns the job and
 * whether a cancel was asked for.
 */
export async function heartbeat(
  id: string,
  worker: string,
  leaseMs: number,
  progress: { fraction: number; message: string },
  now = Date.now(),
): Promise<{ owned: boolean; cancelRequested: boolean }> {
  return withoutDiskWait(async (db) => {
    const result = await db
      .updateTable('jobs')
      .set({
        locked_until: iso(now + leaseMs),
        progress: Math.max(0, Math.min(1, progress.fraction)),
        message: progress.message,
        updated_at: iso(now),
      })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return { owned: false, cancelRequested: false };
    const row = await db.selectFrom('jobs').select('cancel_requested').where('id', '=', id).executeTakeFirst();
    return { owned: true, cancelRequested: row?.cancel_requested === 1 };
  });
}

/** Ends a job the worker owns. A job taken over by another worker is left alone. */
export async function finishJob(
  id: string,
  worker: string,
  end: { status: 'succeeded' | 'failed' | 'cancelled' | 'queued'; message: string; error?: string | null },
  now = Date.now(),
): Promise<boolean> {
  const result = await withoutDiskWait((db) =>
    db
      .updateTable('jobs')
      .set({
        status: end.status,
        message: end.message,
        error: end.error ?? null,
        progress: end.status === 'succeeded' ? 1 : undefined,
        locked_by: null,
        locked_until: null,
        finished_at: end.status === 'queued' ? null : iso(now),
        updated_at: iso(now),
      })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0;
}

/** A queued job is cancelled at once; a running one is asked to stop at its next step. */
export async function requestCancel(id: string, now = Date.now()): Promise<JobRow | undefined> {
  const db = await getDb();
  await db
    .updateTable('jobs')
    .set({ status: 'cancelled', message: 'Cancelled before it started', finished_at: iso(now), updated_at: iso(now) })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .execute();
  await db
    .updateTable('jobs')
    .set({ cancel_requested: 1, message: 'Cancelling…', updated_at: iso(now) })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
  return getJob(id);
}

export async function deleteJob(id: string): Promise<void> {
  const db = await getDb();
  await db.deleteFrom('jobs').where('id', '=', id).execute();
}

export async function listJobs(opts: { statuses?: JobStatus[]; limit?: number } = {}): Promise<JobRow[]> {
  const db = await getDb();
  let q = db.selectFrom('jobs').selectAll();
  if (opts.statuses?.length) q = q.where('status', 'in', opts.statuses);
  return q
    .orderBy('created_at', 'desc')
    .limit(opts.limit ?? 100)
    .execute();
}
