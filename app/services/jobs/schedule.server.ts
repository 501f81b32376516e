import { enqueueJob } from './queue.server';

// Recurring jobs (billing reconciliation, …): every worker process looks at the schedule once a
// minute and enqueues each due job under an id made of its kind and period, so however many
// processes run, one job per period exists and runs once.

export type RecurringJob = {
  kind: string;
  everyMs: number;
  timeoutMs: number;
  /** Whether the job applies to this instance (e.g. only with billing configured). */
  enabled: () => boolean;
};

const recurring: RecurringJob[] = [];

export function registerRecurringJob(job: RecurringJob): void {
  if (!recurring.some((r) => r.kind === job.kind)) recurring.push(job);
}

/** The id of the period `now` falls in: `kind@<period start ISO>`. */
export function periodJobId(job: Pick<RecurringJob, 'kind' | 'everyMs'>, now: number): string {
  return `${job.kind}@${new Date(Math.floor(now / job.everyMs) * job.everyMs).toISOString()}`;
}

export async function enqueueDueJobs(now = Date.now()): Promise<string[]> {
  const ids: string[] = [];
  for (const job of recurring) {
    if (!job.enabled()) continue;
    const id = periodJobId(job, now);
    await enqueueJob({ id, kind: job.kind, payload: {}, timeoutMs: job.timeoutMs, maxAttempts: 3 });
    ids.push(id);
  }
  return ids;
}

const CHECK_MS = 60_000;

/** Checks the schedule now and every minute; returns a stop function. */
export function startSchedule(): () => void {
  const check = () =>
    void enqueueDueJobs().catch((e: unknown) => console.warn(`[jobs] schedule: ${e instanceof Error ? e.message : String(e)}`));
  check();
  const timer = setInterval(check, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
