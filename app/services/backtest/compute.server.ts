import type { Screen } from '../screener/model';
import { BacktestInputError, backtestSteps, type BacktestParams, type BacktestResult } from './engine';
import { loadMarketInputs, survivorsOnly, type MarketInputs } from './market-inputs.server';
import { toStored, type StoredResult, type SurvivorsComparison } from './stored-result';

// One backtest from its stored request to its stored result: read the market inputs, run the
// engine and the survivors-only comparison side by side (one signal day at a time, both on the
// same snapshots, so a computed snapshot is made once), and return the result to store.
// Runs in the backtest compute process (compute-process.ts), never on the web thread.

export type ComputeProgress = (fraction: number, message: string) => Promise<void>;

export type ComputedBacktest = { stored: StoredResult; snapshotId: string; engineVersion: string };

/** Tests of crash recovery slow each step down so a worker can be killed mid-run. */
function testStepDelay(): number {
  const raw = process.env.NODE_ENV === 'test' ? Number(process.env.QUARRY_TEST_JOB_STEP_DELAY_MS ?? 0) : 0;
  return Number.isFinite(raw) && raw > 0 ? Math.min(raw, 5_000) : 0;
}

/** Equal-weighted benchmark curves kept by this process (a few KB each): a later run on the same store, universe and dates reuses them. */
const EQUAL_WEIGHT_CURVES = 16;
const equalWeightCurves = new Map<string, Float64Array>();

function curveCache(key: string): { get(): Float64Array | undefined; set(curve: Float64Array): void } {
  return {
    get() {
      const hit = equalWeightCurves.get(key);
      if (hit) {
        equalWeightCurves.delete(key);
        equalWeightCurves.set(key, hit);
      }
      return hit;
    },
    set(curve) {
      equalWeightCurves.set(key, curve);
      while (equalWeightCurves.size > EQUAL_WEIGHT_CURVES) equalWeightCurves.delete(equalWeightCurves.keys().next().value as string);
    },
  };
}

/** What an equal-weighted benchmark depends on: the store's data, the universe, the dates and the capital (not the rules). */
function curveKey(snapshotId: string, screen: Screen, params: BacktestParams, run: 'all' | 'survivors'): string {
  const { start, end, rebalance, initialCapital } = params;
  return JSON.stringify([snapshotId, run, screen.universe, start, end, rebalance, initialCapital]);
}

/** Progress messages at most this often (each one is a message to the job's process). */
const REPORT_MS = 100;

export async function computeBacktest(
  screen: Screen,
  params: BacktestParams,
  progress: ComputeProgress,
  isCancelled: () => boolean,
): Promise<ComputedBacktest> {
  return runBacktestPair(await loadMarketInputs(screen, params, progress), screen, params, progress, isCancelled);
}

/** The engine's part of a backtest on inputs already read: the run and its survivors-only comparison. */
export async function runBacktestPair(
  inputs: MarketInputs,
  screen: Screen,
  params: BacktestParams,
  progress: ComputeProgress,
  isCancelled: () => boolean,
): Promise<ComputedBacktest> {
  const { snapshots } = inputs;
  const snapshotAt = (_date: string, day: number) => snapshots.at(day);
  const main = backtestSteps({
    screen,
    params,
    prices: inputs.prices,
    exchangeDays: inputs.exchangeDays,
    securities: inputs.securities,
    snapshotAt,
    isCancelled,
    equalWeightCurve: curveCache(curveKey(inputs.snapshotId, screen, params, 'all')),
  });
  const restricted = survivorsOnly(inputs, params.end);
  // Every company survived (a panel of an index's members as of its end, as the S&P 500 file is):
  // the survivors-only universe is the universe itself, and its run would be the main run once
  // more, bit for bit (the engine is deterministic, and a curves-only run gives a full run's
  // curves and statistics). Half the engine's time on such a run.
  const everySurvived =
    restricted.prices.series.length === inputs.prices.series.length && restricted.securities.length === inputs.securities.length;
  let survivors: Generator<unknown, BacktestResult, void> | null = everySurvived
    ? null
    : backtestSteps({
        screen,
        params,
        prices: restricted.prices,
        // The exchange's calendar, as the main run: both curves have the same days (and the
        // calendar is not derived again from the survivors' bars).
        exchangeDays: inputs.exchangeDays,
        securities: restricted.securities,
        snapshotAt: (_date, day) => restricted.snapshots.at(day),
        isCancelled,
        equalWeightCurve: curveCache(curveKey(inputs.snapshotId, screen, params, 'survivors')),
        curvesOnly: true,
      });
  const total = snapshots.days.length;
  const delay = testStepDelay();
  let result: BacktestResult | null = null;
  let survivorsResult: BacktestResult | null = null;
  let reported = 0;
  // Step j of a run evaluates signal j (the last step finishes the run): prepare its snapshot first.
  for (let j = 0; result === null || (survivors !== null && survivorsResult === null); j++) {
    if (j < total) await snapshots.prepare(j);
    if (result === null) {
      const step = main.next();
      if (step.done) result = step.value;
    }
    if (survivors !== null && survivorsResult === null) {
      try {
        const step = survivors.next();
        if (step.done) survivorsResult = step.value;
      } catch (e) {
        // A benchmark that did not survive, or no survivors at all: the comparison does not exist.
        if (!(e instanceof BacktestInputError)) throw e;
        survivors = null;
      }
    }
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (delay > 0 || performance.now() - reported > REPORT_MS) {
      reported = performance.now();
      await progress(
        0.3 + (0.65 * Math.min(j + 1, total)) / Math.max(1, total),
        `Backtest: ${Math.min(j + 1, total)} of ${total} rebalance dates`,
      );
    }
  }
  const survived = everySurvived ? result : survivorsResult;
  const comparison: SurvivorsComparison | null =
    survived === null
      ? null
      : {
          securities: restricted.prices.series.length,
          statistics: survived.statistics,
          equity: Array.from(survived.equity),
          delistedExcluded: inputs.prices.series.length - restricted.prices.series.length,
        };
  return { stored: toStored(result, comparison), snapshotId: inputs.snapshotId, engineVersion: result.engineVersion };
}
