import { z } from 'zod';
import { getDb } from '../db/db.server';
import { DomainError, isDomainError } from '../http/errors';
import { defineJob, JobInputError, type JobContext } from '../jobs/registry';
import { ScreenSchema } from '../screener/model';
import {
  BacktestCancelledError,
  BacktestInputError,
  BacktestParamsSchema,
  backtestSteps,
  type runBacktest,
  type BacktestResult,
} from './engine';
import { loadMarketInputs, survivorsOnly, type MarketInputs } from './market-inputs.server';
import { encodeResult, summaryOf, toStored, type SurvivorsComparison } from './stored-result';

// The backtest job: read the stored request, read the market data, run the engine a signal date
// at a time (giving the event loop a turn so a server process keeps answering), run the
// survivors-only comparison, store everything in one update. Re-running it (a crash, a BullMQ
// re-delivery) recomputes the same numbers from the same stored inputs; a stored result is
// never recomputed.

export const BACKTEST_JOB_TIMEOUT_MS = 10 * 60_000;
/** Work between two turns of the event loop. */
const SLICE_MS = 25;

const BacktestJobPayloadSchema = z.object({ backtestId: z.string().min(1) });
type BacktestJobPayload = z.infer<typeof BacktestJobPayloadSchema>;

/** Tests of crash recovery slow each step down so a worker can be killed mid-run. */
function testStepDelay(): number {
  const raw = process.env.NODE_ENV === 'test' ? Number(process.env.QUARRY_TEST_JOB_STEP_DELAY_MS ?? 0) : 0;
  return Number.isFinite(raw) && raw > 0 ? Math.min(raw, 5_000) : 0;
}

async function runSteps(
  inputs: Parameters<typeof runBacktest>[0],
  ctx: JobContext,
  from: number,
  to: number,
  label: string,
): Promise<BacktestResult> {
  const steps = backtestSteps({ ...inputs, isCancelled: ctx.shouldStop });
  const delay = testStepDelay();
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (delay > 0 || performance.now() - sliceStart > SLICE_MS) {
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      await ctx.progress(
        from + ((to - from) * step.value.done) / step.value.total,
        `${label}: ${step.value.done} of ${step.value.total} rebalance dates`,
      );
      await new Promise((r) => setImmediate(r));
      sliceStart = performance.now();
    }
  }
}

async function survivorsComparison(
  inputs: MarketInputs,
  run: Parameters<typeof runBacktest>[0],
  ctx: JobContext,
): Promise<SurvivorsComparison | null> {
  const restricted = survivorsOnly(inputs, run.params.end);
  const excluded = inputs.prices.series.length - restricted.prices.series.length;
  try {
    const result = await runSteps({ ...run, ...restricted }, ctx, 0.9, 0.99, 'Survivors-only comparison');
    return {
      securities: restricted.prices.series.length,
      statistics: result.statistics,
      equity: Array.from(result.equity),
      delistedExcluded: excluded,
    };
  } catch (e) {
    // A benchmark that did not survive, or no survivors at all: the comparison does not exist.
    if (e instanceof BacktestInputError) return null;
    throw e;
  }
}

async function runBacktestJob({ backtestId }: BacktestJobPayload, ctx: JobContext): Promise<{ message: string }> {
  const db = await getDb();
  const row = await db.selectFrom('backtests').select(['id', 'screen', 'params', 'result']).where('id', '=', backtestId).executeTakeFirst();
  if (!row) throw new JobInputError('The backtest was deleted');
  if (row.result) return { message: 'Done' };
  const screen = ScreenSchema.parse(JSON.parse(row.screen));
  const params = BacktestParamsSchema.parse(JSON.parse(row.params));
  try {
    const inputs = await loadMarketInputs(screen, params, (f, m) => ctx.progress(f, m));
    const run = { screen, params, prices: inputs.prices, securities: inputs.securities, snapshotAt: inputs.snapshotAt };
    const result = await runSteps(run, ctx, 0.5, 0.9, 'Backtest');
    const survivors = await survivorsComparison(inputs, run, ctx);
    const stored = toStored(result, survivors);
    await ctx.progress(0.995, 'Saving the result');
    await db
      .updateTable('backtests')
      .set({
        result: encodeResult(stored),
        summary: JSON.stringify(summaryOf(stored)),
        snapshot_id: inputs.snapshotId,
        engine_version: result.engineVersion,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', backtestId)
      .where('result', 'is', null)
      .execute();
    return { message: 'Done' };
  } catch (e) {
    if (e instanceof BacktestCancelledError) throw e;
    if (e instanceof BacktestInputError) throw new JobInputError(e.message);
    if (isDomainError(e) && e.status < 500) throw new JobInputError(e.detail);
    if (e instanceof DomainError) throw new Error(e.detail);
    throw e;
  }
}

export const backtestJob = defineJob({ kind: 'backtest', payload: BacktestJobPayloadSchema, run: runBacktestJob });
