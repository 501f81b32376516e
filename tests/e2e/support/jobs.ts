import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { openDatabase } from '../../../app/services/db/db.server';
import type { JobStatus } from '../../../app/services/db/schema';
import { e2eAppState } from './app-state';

// Puts a row straight into the running app's jobs table, for the admin page's jobs section.

export async function seedJob(job: { kind: string; status: JobStatus; error?: string }): Promise<string> {
  const state = e2eAppState();
  const handle = openDatabase(
    state.databaseUrl ? { databaseUrl: state.databaseUrl } : { sqliteFile: path.join(state.dataDir, 'quarry.sqlite') },
  );
  const id = randomUUID();
  const now = new Date().toISOString();
  try {
    await handle.db
      .insertInto('jobs')
      .values({
        id,
        kind: job.kind,
        payload: '{}',
        user_id: null,
        status: job.status,
        progress: 0,
        message: null,
        attempts: 1,
        max_attempts: 3,
        timeout_ms: 60_000,
        cancel_requested: 0,
        locked_by: null,
        locked_until: null,
        error: job.error ?? null,
        created_at: now,
        started_at: now,
        finished_at: job.status === 'queued' || job.status === 'running' ? null : now,
        updated_at: now,
      })
      .execute();
  } finally {
    await handle.close();
  }
  return id;
}
