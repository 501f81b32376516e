import { enqueueJob } from './queue.server';
import type { JobRegistry } from './registry';

// Recurring jobs (billing reconciliation, …): every worker process looks at the schedule once a
// minute and enqueues each due job under an id made of its kind and period, so however many
// processes run, one job per period exists and runs once.

/** The id of the period `now` falls in: `kind@<period start ISO>`. */
export function periodJobId(job: { kind: string; everyMs: number }, now: number): string {
  return `${job.kind}@${new Date(Math.floor(now / job.everyMs) * job.everyMs).toISOString()}`;
}

export async function enqueueDueJobs(jobs: JobRegistry, now = Date.now()): Promise<string[]> {
  const ids: string[] = [];
  for (const { kind, recurrence } of jobs.recurring) {
    if (!recurrence.enabled()) continue;
    let id: string;
    if (recurrence.periodAt) {
      const period = recurrence.periodAt(now);
      if (period === null) continue;
      id = `${kind}@${period}`;
    } else {
      id = periodJobId({ kind, everyMs: recurrence.everyMs }, now);
    }
    await enqueueJob({ id, kind, payload: {}, timeoutMs: recurrence.timeoutMs, maxAttempts: 3 });
    ids.push(id);
  }
  return ids;
}

const CHECK_MS = 60_000;

/** Checks the schedule now and every minute; returns a stop function. */
export function startSchedule(jobs: JobRegistry): () => void {
  const check = () =>
    void enqueueDueJobs(jobs).catch((e: unknown) => console.warn(`[jobs] schedule: ${e instanceof Error ? e.message : String(e)}`));
  check();
  const timer = setInterval(check, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
