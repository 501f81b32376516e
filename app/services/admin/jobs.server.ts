import { cancelJob, retryJob } from '../jobs/control.server';
import { getDb, type DB } from '../db/db.server';
import type { JobStatus } from '../db/schema';
import { audited } from './audit.server';
import type { AdminJob, AdminJobGroups } from './jobs-panel';

// The jobs section of the admin page: a read-only look at the jobs table, and retry / cancel
// through the job system's control functions with an audit entry in the same transaction.

const ACTIVE_LIMIT = 100;
const FAILED_LIMIT = 25;
const RECENT_LIMIT = 10;

async function jobsWhere(d: DB, statuses: JobStatus[], order: 'asc' | 'desc', limit: number): Promise<AdminJob[]> {
  const rows = await d
    .selectFrom('jobs')
    .leftJoin('users', 'users.id', 'jobs.user_id')
    .select([
      'jobs.id',
      'jobs.kind',
      'jobs.status',
      'jobs.progress',
      'jobs.message',
      'jobs.attempts',
      'jobs.error',
      'jobs.created_at',
      'jobs.started_at',
      'jobs.finished_at',
      'jobs.cancel_requested',
      'users.email as user_email',
    ])
    .where('jobs.status', 'in', statuses)
    .orderBy(order === 'asc' ? 'jobs.created_at' : 'jobs.updated_at', order)
    .orderBy('jobs.id', order)
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    progress: Number(r.progress),
    attempts: Number(r.attempts),
    cancel_requested: r.cancel_requested === 1,
  }));
}

export async function listAdminJobs(db?: DB): Promise<AdminJobGroups> {
  const d = db ?? (await getDb());
  const [active, failed, recent] = await Promise.all([
    jobsWhere(d, ['running', 'queued'], 'asc', ACTIVE_LIMIT),
    jobsWhere(d, ['failed'], 'desc', FAILED_LIMIT),
    jobsWhere(d, ['succeeded', 'cancelled'], 'desc', RECENT_LIMIT),
  ]);
  return { active, failed, recent };
}

export async function retryJobAsAdmin(actorId: string, jobId: string): Promise<{ kind: string }> {
  return audited(actorId, async (trx) => {
    const done = await retryJob(jobId, trx);
    return {
      result: { kind: done.kind },
      audit: { action: 'job.retry', target: `job ${jobId}`, detail: `${done.kind} job: ${done.from} → queued, attempts reset.` },
    };
  });
}

export async function cancelJobAsAdmin(actorId: string, jobId: string): Promise<{ kind: string; cancelRequested: boolean }> {
  return audited(actorId, async (trx) => {
    const done = await cancelJob(jobId, trx);
    return {
      result: { kind: done.kind, cancelRequested: done.cancelRequested },
      audit: {
        action: 'job.cancel',
        target: `job ${jobId}`,
        detail: done.cancelRequested ? `${done.kind} job: running, asked to stop.` : `${done.kind} job: queued → cancelled.`,
      },
    };
  });
}
