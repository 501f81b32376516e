import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { config } from '../config.server';
import { defineJob, jobRegistry, JobStoppedError, type JobContext } from '../jobs/registry';
import { runJob, workerId } from '../jobs/runner.server';
import { getJob, insertJob, type JobRow } from '../jobs/store.server';
import { IMPORT_SOURCES, runMarketImport, type ImportSource } from './import-run.server';
import { silentProgress } from './progress.server';
import type { ImportSummary, ProgressReporter } from '../market/store/records';

// Imports are jobs, so the admin page lists them (queued, running, failed) and can cancel or
// retry them like backtests. `npm run data -- import` inserts the job and runs it right away in
// its own process, with its progress bars; a retry from the admin page is run by any worker.
// One attempt: a failed import is nearly always its input, and the admin decides on a retry.

const MARKET_IMPORT_JOB = 'market-import';
const IMPORT_TIMEOUT_MS = 6 * 60 * 60_000;
const PROGRESS_EVERY_MS = 500;

const PayloadSchema = z.object({
  source: z.enum(IMPORT_SOURCES),
  args: z
    .array(
      z
        .string()
        .max(4096)
        .refine((a) => !a.includes('\u0000'), 'NUL in an argument'),
    )
    .max(10_000),
});

export function importSummaryLine(s: ImportSummary): string {
  return `Imported ${s.source}: ${s.securities} securities, ${s.rows} rows. Snapshot ${s.snapshotId}.`;
}

/** Paths are made absolute where the command was typed, so a worker started elsewhere reads the same files. */
export function absoluteImportArgs(args: string[], cwd = process.cwd()): string[] {
  return args.map((a) => (a.startsWith('-') || path.isAbsolute(a) || !existsSync(path.resolve(cwd, a)) ? a : path.resolve(cwd, a)));
}

/** Passes progress on to `echo` and to the job row; the next step after a cancel throws. */
export function jobProgress(ctx: JobContext, echo: ProgressReporter): ProgressReporter {
  let label = 'Starting';
  let total = 0;
  let done = 0;
  let sentAt = 0;
  const stopIfAsked = () => {
    if (ctx.shouldStop()) throw new JobStoppedError();
  };
  const send = (force: boolean) => {
    const now = Date.now();
    if (!force && now - sentAt < PROGRESS_EVERY_MS) return;
    sentAt = now;
    const fraction = total > 0 ? Math.min(1, done / total) : 0;
    void ctx.progress(fraction, total > 0 ? `${label}: ${done} of ${total}` : label).catch(() => undefined);
  };
  return {
    start(l, t) {
      stopIfAsked();
      label = l;
      total = t;
      done = 0;
      echo.start(l, t);
      send(true);
    },
    tick(amount = 1) {
      stopIfAsked();
      done += amount;
      echo.tick(amount);
      send(false);
    },
    stop() {
      echo.stop();
    },
    log(message) {
      echo.log(message);
      // A wait for a provider's limit is what the admin should see while nothing moves.
      if (message.startsWith('Waiting'))
        void ctx.progress(total > 0 ? Math.min(1, done / total) : 0, message.slice(0, 300)).catch(() => undefined);
    },
  };
}

// What the CLI that runs a job in its own process wants back: its progress bars and the summary.
const localRuns = new Map<string, { echo: ProgressReporter; summary?: ImportSummary }>();

export const marketImportJob = defineJob({
  kind: MARKET_IMPORT_JOB,
  payload: PayloadSchema,
  async run({ source, args }, ctx) {
    const local = localRuns.get(ctx.job.id);
    const summary = await runMarketImport(source, args, jobProgress(ctx, local?.echo ?? silentProgress), () => ctx.checkpoint());
    if (local) local.summary = summary;
    const warnings =
      summary.warnings.length > 0 ? ` ${summary.warnings.length} warning(s): ${summary.warnings.slice(0, 3).join('; ')}` : '';
    return { message: `${importSummaryLine(summary)}${warnings}`.slice(0, 1000) };
  },
});

/** The CLI runs its own import here and now, whatever else the registry of a worker holds. */
const thisImportOnly = jobRegistry([marketImportJob]);

export type ImportOutcome = { job: JobRow; summary?: ImportSummary };

/** The CLI's import: a job row, run at once here (or, if a worker took it first, waited for). */
export async function importAsJob(
  source: ImportSource,
  args: string[],
  echo: ProgressReporter,
  onQueued: (job: JobRow) => void = () => {},
): Promise<ImportOutcome> {
  const job = await insertJob(
    marketImportJob.newJob({ source, args: absoluteImportArgs(args) }, { maxAttempts: 1, timeoutMs: IMPORT_TIMEOUT_MS }),
  );
  onQueued(job);
  const local: { echo: ProgressReporter; summary?: ImportSummary } = { echo };
  localRuns.set(job.id, local);
  try {
    await runJob(job.id, workerId(), config().jobs.leaseMs, thisImportOnly);
  } finally {
    localRuns.delete(job.id);
  }
  for (;;) {
    const row = await getJob(job.id);
    if (!row) throw new Error(`Import job ${job.id} disappeared (deleted from the admin page?).`);
    if (row.status !== 'queued' && row.status !== 'running') return { job: row, summary: local.summary };
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
