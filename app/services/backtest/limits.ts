import { toEpochDay } from '../dates';
import { periodKey } from './engine/calendar';
import type { BacktestParams } from './engine/params';

// What one backtest may cost, checked before it is queued so that every accepted run finishes
// within its job's time and memory: the positions its result stores (rebalance dates × names
// held, each with a holding row and up to two trades), and the point-in-time snapshots it has to
// compute (rebalance dates without a stored snapshot × companies listed in the period). A run
// over a limit is refused with a message naming the limit and what would bring it under.

/** Rebalance dates × positions held: the holdings and trade rows a stored result keeps. */
export const MAX_HOLDING_ROWS = 3_000_000;
/** Rebalance dates without a stored snapshot × companies: the metric rows computed for the run. */
export const MAX_COMPUTED_SNAPSHOT_ROWS = 25_000_000;

/** Rebalances without a stored snapshot: stored ones are month-ends, so only weekly and daily runs compute. */
const COMPUTES_SNAPSHOTS: ReadonlySet<BacktestParams['rebalance']> = new Set(['weekly', 'daily']);

/**
 * Rebalance dates of the period, counted on weekdays (the exchange calendar is not needed for a
 * limit: holidays only make the true count a little smaller).
 */
export function estimatedRebalanceDates(params: Pick<BacktestParams, 'start' | 'end' | 'rebalance'>): number {
  const from = toEpochDay(params.start);
  const to = toEpochDay(params.end);
  let count = 0;
  let previous: number | null = null;
  for (let d = from; d <= to; d++) {
    const weekday = (((d + 3) % 7) + 7) % 7; // 0 = Monday (epoch day 0 was a Thursday)
    if (weekday >= 5) continue;
    if (previous !== null && periodKey(previous, params.rebalance) !== periodKey(d, params.rebalance)) count++;
    previous = d;
  }
  return count;
}

const n = (x: number) => x.toLocaleString('en-US');

/** The first limit the run would exceed, as a message for the user; null when it fits. */
export function limitProblem(params: BacktestParams, listedCompanies: number): string | null {
  const dates = estimatedRebalanceDates(params);
  const held = params.topN === 'all' ? listedCompanies : Math.min(params.topN, Math.max(1, listedCompanies));
  const rows = dates * held;
  if (rows > MAX_HOLDING_ROWS)
    return (
      `This backtest would store about ${n(rows)} positions (${n(dates)} rebalance dates × ${n(held)} names held); ` +
      `the limit is ${n(MAX_HOLDING_ROWS)} positions per backtest. Rebalance less often, hold fewer names or shorten the period.`
    );
  if (COMPUTES_SNAPSHOTS.has(params.rebalance)) {
    const computed = dates * listedCompanies;
    if (computed > MAX_COMPUTED_SNAPSHOT_ROWS)
      return (
        `This backtest would evaluate the screen for about ${n(computed)} company-days (${n(dates)} ${params.rebalance} rebalance dates × ` +
        `${n(listedCompanies)} companies listed in the period); the limit is ${n(MAX_COMPUTED_SNAPSHOT_ROWS)} company-days per backtest. ` +
        `Rebalance monthly or less often (month-end snapshots are stored), or shorten the period.`
      );
  }
  return null;
}
