import type { DuckDBConnection } from '@duckdb/node-api';
import { fromEpochDay } from '../dates';
import { DIVIDEND_METRIC_IDS } from './engine/dividends';
import { SecurityEvaluator } from './engine/evaluate';
import { metricIndex, N_METRICS } from './engine/metric-index';
import { technicalGroups } from './engine/technicals';
import type { MarketReturns, MetricSnapshot } from './engine/types';
import { quantizeInPlace } from './snapshot-values';
import { loadBlock, type SecurityRow } from './store-loader.server';

// Point-in-time snapshots of a few metrics for many days that are not stored (a weekly or daily
// backtest's signal days), computed by the same engine as the stored ones: the securities are
// read from the store a block at a time with the price and fact history those days need, and
// each is evaluated on every day in ascending order (its filings are applied once), skipping the
// technicals no requested metric needs. Memory: the block's history plus days × rows × metrics.

/** Price history before the first day: 5-year returns, 3-year beta and EMA warm-ups need ~6.3 years. */
export const PRICE_HISTORY_DAYS = 2300;
/** Facts whose period ended this long before the first day cannot affect any metric (see snapshots.server.ts). */
export const FACT_HISTORY_DAYS = 9 * 366;
const BLOCK = 400;

export type ComputeOptions = {
  /** Every security of the store with its price range (listSecurities). */
  securities: readonly SecurityRow[];
  market: MarketReturns | null;
  /** The exchange's trading days. */
  calendar: Int32Array;
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
  const slots = metrics.map((id) => metricIndex(id));
  const need = new Uint8Array(N_METRICS);
  for (const m of slots) need[m] = 1;
  const groups = technicalGroups(need);
  const dividends = metrics.some((id) => (DIVIDEND_METRIC_IDS as readonly string[]).includes(id));
  const capacity = listed.length;
  const perms = Array.from(days, () => new Int32Array(capacity));
  const values = Array.from(days, () => slots.map(() => new Float64Array(capacity)));
  const counts = new Int32Array(days.length);
  const row = new Float64Array(N_METRICS);
  const blocks = Math.ceil(listed.length / BLOCK);
  for (let b = 0; b < blocks; b++) {
    const slice = listed.slice(b * BLOCK, (b + 1) * BLOCK);
    const inputs = await loadBlock(conn, slice, {
      toDay: last,
      priceFromDay: first - PRICE_HISTORY_DAYS,
      factFromDay: first - FACT_HISTORY_DAYS,
    });
    // Block order is permaticker order, so each day's rows stay ascending.
    for (const input of inputs) {
      const ev = new SecurityEvaluator(input, opts.calendar);
      for (let d = 0; d < days.length; d++) {
        if (!ev.evaluateInto(days[d], row, opts.market, groups, dividends)) continue;
        const r = counts[d]++;
        perms[d][r] = input.permaticker;
        const out = values[d];
        for (let m = 0; m < slots.length; m++) out[m][r] = row[slots[m]];
      }
    }
    await opts.onBlock?.(b + 1, blocks);
  }
  return Array.from(days, (day, d) => {
    const n = counts[d];
    const v: Record<string, Float64Array> = {};
    // The values a stored snapshot of the day would read back (snapshot-values.ts).
    metrics.forEach((id, m) => (v[id] = quantizeInPlace(values[d][m].slice(0, n))));
    return { date: fromEpochDay(day), day, permatickers: perms[d].slice(0, n), values: v };
  });
}
