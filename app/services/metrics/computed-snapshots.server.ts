import type { DuckDBConnection } from '@duckdb/node-api';
import { fromEpochDay } from '../dates';
import { computeBlock, type ComputedBlock } from './computed-block';
import type { MarketReturns, MetricSnapshot } from './engine/types';
import type { SnapshotEvaluators } from './snapshot-evaluators.server';
import { quantizeInPlace } from './snapshot-values';
import { loadBlock, type SecurityRow } from './store-loader.server';

// Point-in-time snapshots of a few metrics for many days that are not stored (a weekly or daily
// backtest's signal days), computed by the same engine as the stored ones: the securities are
// read from the store a block at a time with the price and fact history those days need, and
// each block is evaluated (computed-block.ts) in an evaluator thread while this one reads the
// next, or here without them. Memory: the blocks' history plus days × rows × metrics.

/** Price history before the first day: 5-year returns, 3-year beta and EMA warm-ups need ~6.3 years. */
export const PRICE_HISTORY_DAYS = 2300;
/** Facts whose period ended this long before the first day cannot affect any metric (see snapshots.server.ts). */
export const FACT_HISTORY_DAYS = 9 * 366;
const BLOCK = 400;
/**
 * Securities per block handed to an evaluator thread: each thread holds one block's history, and
 * one more is read meanwhile. On the 6,000 × 25 demo's 25-year weekly 5-metric backtest, blocks
 * of 100 took the snapshots from 50 s in this thread to 35 s in two, at 1.65 GB peak against
 * 1.58 GB (blocks of 400: 34–40 s at 2.1 GB).
 */
export const COMPUTED_THREAD_BLOCK = 100;
/**
 * Days a window needs for threads to pay: a block's evaluation grows with its days, its reading
 * from the store (this thread) with its history alone. On the same demo, daily backtests of
 * ~85 and ~250 days took 7.8–11.6 and 9.0–9.9 s in threads against 6.1–6.6 and 7.3–9.4 s here.
 */
export const COMPUTED_THREAD_MIN_DAYS = 500;

export type ComputeOptions = {
  /** Every security of the store with its price range (listSecurities). */
  securities: readonly SecurityRow[];
  market: MarketReturns | null;
  /** The exchange's trading days. */
  calendar: Int32Array;
  /** Threads that evaluate blocks while this one reads the next (none: evaluated here). */
  evaluators?: SnapshotEvaluators;
  /** Securities per block (BLOCK). */
  blockSize?: number;
  /** Called between blocks, so a caller can report progress or stop. */
  onBlock?: (done: number, total: number) => Promise<void> | void;
};

export async function computeSnapshots(
  conn: DuckDBConnection,
  days: Int32Array,
  metrics: readonly string[],
  opts: ComputeOptions,
): Promise<MetricSnapshot[]> {
  if (days.length === 0) return [];
  const first = days[0];
  const last = days[days.length - 1];
  const listed = opts.securities.filter(
    (s) => s.firstDay !== null && s.firstDay <= last && !(s.isDelisted && (s.lastDay ?? Number.NEGATIVE_INFINITY) < first),
  );
  const capacity = listed.length;
  const perms = Array.from(days, () => new Int32Array(capacity));
  const values = Array.from(days, () => metrics.map(() => new Float64Array(capacity)));
  const counts = new Int32Array(days.length);
  /** Appends a block's rows to each day's (blocks are appended in permaticker order, so each day's rows stay ascending). */
  const append = (block: ComputedBlock, n: number) => {
    for (let d = 0; d < days.length; d++) {
      const rows = block.counts[d];
      const at = counts[d];
      perms[d].set(block.permatickers.subarray(d * n, d * n + rows), at);
      for (let m = 0; m < metrics.length; m++) {
        const from = (d * metrics.length + m) * n;
        values[d][m].set(block.values.subarray(from, from + rows), at);
      }
      counts[d] += rows;
    }
  };
  // A pool without threads (one core) evaluates here, in the larger blocks.
  const pool = opts.evaluators && opts.evaluators.inFlight > 0 ? opts.evaluators : null;
  const size = opts.blockSize ?? (pool ? COMPUTED_THREAD_BLOCK : BLOCK);
  const blocks = Math.ceil(listed.length / size);
  const threads = blocks > 1 ? pool : null;
  const inFlight: { block: Promise<ComputedBlock>; n: number }[] = [];
  for (let b = 0; b < blocks; b++) {
    const slice = listed.slice(b * size, (b + 1) * size);
    const securities = await loadBlock(conn, slice, {
      toDay: last,
      priceFromDay: first - PRICE_HISTORY_DAYS,
      factFromDay: first - FACT_HISTORY_DAYS,
      accessions: false,
    });
    const job = { securities, market: opts.market, calendar: opts.calendar, days, metrics };
    if (!threads) append(computeBlock(job), securities.length);
    else {
      const block = threads.compute(job);
      // Awaited below; handled now so that a failure while an earlier block is awaited is not unhandled.
      block.catch(() => undefined);
      inFlight.push({ block, n: securities.length });
      // Every thread busy: the oldest block is appended before the next is read.
      while (inFlight.length > threads.inFlight) {
        const oldest = inFlight.shift()!;
        append(await oldest.block, oldest.n);
      }
    }
    await opts.onBlock?.(b + 1, blocks);
  }
  for (const { block, n } of inFlight) append(await block, n);
  return Array.from(days, (day, d) => {
    const n = counts[d];
    const v: Record<string, Float64Array> = {};
    // The values a stored snapshot of the day would read back (snapshot-values.ts).
    metrics.forEach((id, m) => (v[id] = quantizeInPlace(values[d][m].slice(0, n))));
    return { date: fromEpochDay(day), day, permatickers: perms[d].slice(0, n), values: v };
  });
}
