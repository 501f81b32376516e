import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import { listAudit } from '~/services/admin/audit.server';
import { cancelJobAsAdmin, listAdminJobs, retryJobAsAdmin } from '~/services/admin/jobs.server';
import { getDb } from '~/services/db/db.server';
import type { JobStatus } from '~/services/db/schema';
import { DomainError } from '~/services/http/errors';
import { cancelJob, retryJob } from '~/services/jobs/control.server';
import { forEachDatabase } from '../support/databases';

// Retry and cancel on the jobs table, and the admin's view of it, on SQLite and PostgreSQL.

let clock = Date.UTC(2025, 0, 1);
const tick = () => new Date((clock += 1000)).toISOString();

async function seedJob(
  status: JobStatus,
  over: { userId?: string | null; kind?: string; error?: string | null; attempts?: number; cancelRequested?: boolean } = {},
): Promise<string> {
  const db = await getDb();
  const id = randomUUID();
  const at = tick();
  const finished = status === 'failed' || status === 'succeeded' || status === 'cancelled';
  await db
    .insertInto('jobs')
    .values({
      id,
      kind: over.kind ?? 'backtest',
      payload: '{}',
      user_id: over.userId ?? null,
      status,
      progress: status === 'running' ? 0.4 : finished ? 1 : 0,
      message: status === 'running' ? 'Rebalance 4 of 10' : null,
      attempts: over.attempts ?? (status === 'queued' ? 0 : 1),
      max_attempts: 3,
      timeout_ms: 60_000,
      cancel_requested: over.cancelRequested ? 1 : 0,
      locked_by: status === 'running' ? 'worker-1' : null,
      locked_until: status === 'running' ? at : null,
      error: over.error ?? (status === 'failed' ? 'Boom: the disk is full' : null),
      created_at: at,
      started_at: status === 'queued' ? null : at,
      finished_at: finished ? at : null,
      updated_at: at,
    })
    .execute();
  return id;
}

async function job(id: string) {
  const db = await getDb();
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function statusOf(e: Promise<unknown>): Promise<number | string> {
  return e.then(
    () => 'resolved',
    (err: unknown) => (err instanceof DomainError ? err.status : String(err)),
  );
}

forEachDatabase('admin: jobs', () => {
  let root: string;
  let member: string;
  beforeEach(async () => {
    const db = await getDb();
    await db.deleteFrom('jobs').execute();
    await db.deleteFrom('audit_log').execute();
    await db.deleteFrom('users').execute();
    const now = new Date().toISOString();
    root = randomUUID();
    member = randomUUID();
    for (const [id, email, su] of [
      [root, 'root@example.com', 1],
      [member, 'member@example.com', 0],
    ] as const) {
      await db
        .insertInto('users')
        .values({
          id,
          email,
          full_name: email,
          password_hash: null,
          profile_picture: null,
          profile_finished: 1,
          access_override: null,
          is_superuser: su,
          disabled: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
  });

  it('retries a failed or cancelled job: queued again, attempts reset, error cleared', async () => {
    const failed = await seedJob('failed', { attempts: 3 });
    expect(await retryJob(failed)).toMatchObject({ from: 'failed', to: 'queued', kind: 'backtest' });
    expect(await job(failed)).toMatchObject({
      status: 'queued',
      attempts: 0,
      error: null,
      started_at: null,
      finished_at: null,
      locked_by: null,
      cancel_requested: 0,
    });
    const cancelled = await seedJob('cancelled');
    await retryJob(cancelled);
    expect((await job(cancelled)).status).toBe('queued');
  });

  it('refuses to retry what is not failed or cancelled, and knows no unknown job', async () => {
    for (const status of ['queued', 'running', 'succeeded'] as const) {
      const id = await seedJob(status);
      const before = await job(id);
      expect(await statusOf(retryJob(id)), status).toBe(409);
      expect(await job(id)).toEqual(before);
    }
    expect(await statusOf(retryJob(randomUUID()))).toBe(404);
    expect(await statusOf(cancelJob(randomUUID()))).toBe(404);
  });

  it('cancels a queued job at once and asks a running one to stop', async () => {
    const queued = await seedJob('queued');
    expect(await cancelJob(queued)).toMatchObject({ from: 'queued', to: 'cancelled', cancelRequested: false });
    const q = await job(queued);
    expect(q.status).toBe('cancelled');
    expect(q.finished_at).not.toBeNull();
    const running = await seedJob('running');
    expect(await cancelJob(running)).toMatchObject({ from: 'running', to: 'running', cancelRequested: true });
    expect(await job(running)).toMatchObject({ status: 'running', cancel_requested: 1 });
    for (const status of ['succeeded', 'failed', 'cancelled'] as const) {
      const id = await seedJob(status);
      expect(await statusOf(cancelJob(id)), status).toBe(409);
    }
  });

  it('lists queued and running oldest first, failed and finished newest first, with who asked', async () => {
    const q1 = await seedJob('queued', { userId: member });
    const r1 = await seedJob('running', { cancelRequested: true });
    const q2 = await seedJob('queued', { kind: 'import' });
    const f1 = await seedJob('failed', { userId: member });
    const f2 = await seedJob('failed', { kind: 'import', error: 'sec: bad file' });
    const s1 = await seedJob('succeeded');
    const c1 = await seedJob('cancelled');
    const jobs = await listAdminJobs();
    expect(jobs.active.map((j) => j.id)).toEqual([q1, r1, q2]);
    expect(jobs.failed.map((j) => j.id)).toEqual([f2, f1]);
    expect(jobs.recent.map((j) => j.id)).toEqual([c1, s1]);
    expect(jobs.active[0]).toMatchObject({
      user_email: 'member@example.com',
      status: 'queued',
      attempts: 0,
      progress: 0,
      cancel_requested: false,
    });
    expect(jobs.active[1]).toMatchObject({
      user_email: null,
      status: 'running',
      progress: 0.4,
      message: 'Rebalance 4 of 10',
      cancel_requested: true,
    });
    expect(jobs.failed[0]).toMatchObject({ kind: 'import', error: 'sec: bad file' });
  });

  it('logs retry and cancel by the admin in the same transaction, and nothing when refused', async () => {
    const failed = await seedJob('failed');
    const queued = await seedJob('queued');
    await retryJobAsAdmin(root, failed);
    await cancelJobAsAdmin(root, queued);
    expect(await statusOf(cancelJobAsAdmin(root, queued))).toBe(409);
    expect(await statusOf(retryJobAsAdmin(member, failed))).toBe(403);
    const audit = await listAudit(1);
    expect(audit.rows.map((r) => r.action).sort()).toEqual(['job.cancel', 'job.retry']);
    expect(audit.rows.find((r) => r.action === 'job.retry')).toMatchObject({ target: `job ${failed}`, actor_email: 'root@example.com' });
    expect(audit.rows.find((r) => r.action === 'job.cancel')?.detail).toContain('queued → cancelled');
  });
});
