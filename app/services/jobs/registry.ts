import type { z } from 'zod';
import type { JobRow, NewJob } from './store.server';

// The kinds of job a worker can run, as values: each domain defines its jobs (payload schema,
// handler, optional schedule) and the worker's entry point composes them into one registry
// (app/services/app-jobs.server.ts). The jobs folder itself knows no domain, so it imports none.

export type JobContext = {
  job: JobRow;
  /** Records progress (0…1) and renews the lease; throws JobStoppedError once stopping. */
  progress(fraction: number, message: string): Promise<void>;
  /** True once a cancel was asked for, the timeout passed or the lease was lost. */
  shouldStop(): boolean;
  /** Asks the jobs table now (not at the next progress write) and throws JobStoppedError once stopping: before a step that cannot be undone. */
  checkpoint(): Promise<void>;
  /**
   * Aborted once the job is stopping (found at the lease's renewal): for a handler that waits on
   * work which reports no progress meanwhile (another process), so that a cancel, the time limit
   * or a lost lease still stop it.
   */
  signal: AbortSignal;
};

export type JobOutcome = { message: string };

/** The inputs cannot work (bad screen, no data for the dates): retrying will not help. */
export class JobInputError extends Error {
  override name = 'JobInputError';
}

export class JobStoppedError extends Error {
  override name = 'JobStoppedError';
  constructor() {
    super('The job was stopped');
  }
}

/** Enqueued by every worker's schedule once per period (see schedule.server.ts). */
export type Recurrence = {
  everyMs: number;
  /**
   * For a job due at a wall-clock time rather than every `everyMs`: the key of the period `now`
   * falls in once the job is due (e.g. the day, after the time of day), null while it is not.
   */
  periodAt?: (now: number) => string | null;
  timeoutMs: number;
  /** Whether the job applies to this instance (e.g. only with billing configured). */
  enabled: () => boolean;
};

export type JobDefinition<P> = {
  kind: string;
  /** Checks the stored payload before the handler sees it; a payload it refuses fails the job for good. */
  payload: z.ZodType<P>;
  run(payload: P, ctx: JobContext): Promise<JobOutcome>;
  recurring?: Recurrence;
  /** What a worker keeps ready for this kind while it runs (e.g. the backtest compute process). */
  worker?: WorkerHooks;
};

export type WorkerHooks = { start(): void; stop(): void };

/** A job kind as the runner sees it: the payload is parsed here, so the handler gets its own type. */
export type JobType<P = unknown> = {
  readonly kind: string;
  readonly recurring: Recurrence | null;
  readonly worker: WorkerHooks | null;
  handle(ctx: JobContext, payload: unknown): Promise<JobOutcome>;
  /** The row to enqueue for this kind, with a payload of the right shape. */
  newJob(payload: P, options: Omit<NewJob, 'kind' | 'payload'>): NewJob;
};

export function defineJob<P>(definition: JobDefinition<P>): JobType<P> {
  return {
    kind: definition.kind,
    recurring: definition.recurring ?? null,
    worker: definition.worker ?? null,
    async handle(ctx, payload) {
      const parsed = definition.payload.safeParse(payload);
      if (!parsed.success) throw new JobInputError(`Not a ${definition.kind} job: ${parsed.error.issues[0]?.message ?? 'bad payload'}`);
      return definition.run(parsed.data, ctx);
    },
    newJob: (payload, options) => ({ ...options, kind: definition.kind, payload }),
  };
}

export type JobRegistry = {
  get(kind: string): JobType<never> | undefined;
  readonly kinds: readonly string[];
  /** The recurring kinds, in the order they were registered. */
  readonly recurring: readonly { kind: string; recurrence: Recurrence }[];
  /** The worker hooks of the kinds that have them. */
  readonly workerHooks: readonly WorkerHooks[];
};

export function jobRegistry(types: readonly JobType<never>[]): JobRegistry {
  const byKind = new Map<string, JobType<never>>();
  for (const t of types) {
    if (byKind.has(t.kind)) throw new Error(`Two job types share the kind "${t.kind}"`);
    byKind.set(t.kind, t);
  }
  return {
    get: (kind) => byKind.get(kind),
    kinds: [...byKind.keys()],
    recurring: types.flatMap((t) => (t.recurring ? [{ kind: t.kind, recurrence: t.recurring }] : [])),
    workerHooks: types.flatMap((t) => (t.worker ? [t.worker] : [])),
  };
}
