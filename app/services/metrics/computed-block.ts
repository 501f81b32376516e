import { DIVIDEND_METRIC_IDS } from './engine/dividends';
import { SecurityEvaluator } from './engine/evaluate';
import { metricIndex, N_METRICS } from './engine/metric-index';
import { technicalGroups } from './engine/technicals';
import type { MarketReturns, SecurityInput } from './engine/types';

// A few metrics of one block of securities on many days that are not stored (a weekly or daily
// backtest's signal days), the same in the compute process's own thread and in a snapshot
// evaluator thread (computed-snapshots.server.ts hands blocks to both). Pure: no I/O.

export type ComputeBlockJob = {
  securities: SecurityInput[];
  market: MarketReturns | null;
  /** The exchange's trading days. */
  calendar: Int32Array;
  /** Ascending epoch days. */
  days: Int32Array;
  metrics: readonly string[];
};

/**
 * The block's rows on each day: day d holds counts[d] rows, row r's permaticker at
 * permatickers[d·n + r] and metric m's value at values[(d·metrics + m)·n + r] (n: the block's
 * securities). Rows keep the block's order.
 */
export type ComputedBlock = { counts: Int32Array; permatickers: Int32Array; values: Float64Array };

/**
 * Evaluates each security on every day in ascending order (its filings are applied once),
 * skipping the technicals no requested metric needs and, unless one is requested, the dividend
 * metrics.
 */
export function computeBlock(job: ComputeBlockJob): ComputedBlock {
  const { securities, days, metrics } = job;
  const slots = metrics.map((id) => metricIndex(id));
  const need = new Uint8Array(N_METRICS);
  for (const m of slots) need[m] = 1;
  const groups = technicalGroups(need);
  const dividends = metrics.some((id) => (DIVIDEND_METRIC_IDS as readonly string[]).includes(id));
  const n = securities.length;
  const counts = new Int32Array(days.length);
  const permatickers = new Int32Array(days.length * n);
  const values = new Float64Array(days.length * slots.length * n);
  const row = new Float64Array(N_METRICS);
  for (const input of securities) {
    const ev = new SecurityEvaluator(input, job.calendar);
    for (let d = 0; d < days.length; d++) {
      if (!ev.evaluateInto(days[d], row, job.market, groups, dividends)) continue;
      const r = counts[d]++;
      permatickers[d * n + r] = input.permaticker;
      const base = d * slots.length * n + r;
      for (let m = 0; m < slots.length; m++) values[base + m * n] = row[slots[m]];
    }
  }
  return { counts, permatickers, values };
}
