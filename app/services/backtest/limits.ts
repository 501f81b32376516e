import { toEpochDay } from '../dates';
import { periodKey } from './engine/calendar';
import type { BacktestParams } from './engine/params';

// What one backtest may cost, checked before it is queued so that every accepted run finishes
// within its job's time and memory: the positions its result stores (rebalance dates × names
// held, each with a holding row and up to two trades), and the point-in-time snapshots it has to
// compute (rebalance dates without a stored snapshot × companies listed in the period), and the
// bytes its stored result takes (estimated from the positions and the metrics each holding keeps).
// A run over a limit is refused with a message naming the limit and what would bring it under.
// The stored size is checked again on the real encoded result before it is stored (a run whose
// numbers compress worse than estimated fails with the same message, and nothing is stored).

/**
 * Seconds `POST /api/v1/backtests` waits for the run by default before it answers 202 to be
 * polled: a monthly backtest takes well under a second, so most clients get the result in the
 * answer to their request and only longer runs are polled (as SQL APIs answer synchronously up
 * to a timeout).
 */
export const CREATE_WAIT_SECONDS = 10;

/** Rebalance dates × positions held: the holdings and trade rows a stored result keeps. */
export const MAX_HOLDING_ROWS = 3_000_000;
/** Rebalance dates without a stored snapshot × companies: the metric rows computed for the run. */
export const MAX_COMPUTED_SNAPSHOT_ROWS = 25_000_000;

/**
 * Bytes one stored backtest result may take (its encoded light part and holdings and trades
 * parts): it bounds the database space of a result, and the time and memory of a CSV download
 * (a page or the API answer reads only the parts it shows). The daily
 * top-500 inverse-volatility run of 2007–2026 on the demo data (2.5 M positions) takes about 75 MB.
 */
export const MAX_STORED_RESULT_BYTES = 128 * 2 ** 20;
/** The stored-result bound in force: MAX_STORED_RESULT_BYTES, or a smaller one a test sets (NODE_ENV=test only). */
export function storedResultLimit(): number {
  const env: Record<string, string | undefined> = typeof process === 'undefined' ? {} : process.env;
  const forTest = env.NODE_ENV === 'test' ? Number(env.QUARRY_TEST_MAX_RESULT_BYTES ?? 0) : 0;
  return forTest > 0 ? Math.min(forTest, MAX_STORED_RESULT_BYTES) : MAX_STORED_RESULT_BYTES;
}

/**
 * Estimated stored bytes per position (a holding and about one trade): the weight and the trade's
 * value are doubles that do not compress (about 22 bytes with the rest of the row, base64
 * included), each metric a holding keeps about 6 more (prices and market caps pack to 2–4, other
 * ratios take up to 11). Measured on daily top-500 runs of the demo data (stored-result.ts, format 3).
 */
export const ESTIMATED_RESULT_BYTES_PER_POSITION = 22;
export const ESTIMATED_RESULT_BYTES_PER_METRIC = 6;

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
const mb = (bytes: number) => (bytes < 2 ** 20 ? `${n(bytes)} bytes` : `${n(Math.round(bytes / 2 ** 20))} MB`);

/** The message of a result over MAX_STORED_RESULT_BYTES (estimated before the run or measured after it). */
export function storedSizeProblem(bytes: number, estimated: boolean, limit = MAX_STORED_RESULT_BYTES): string {
  return (
    `This backtest's result would take ${estimated ? 'about ' : ''}${mb(bytes)} to store; the limit is ${mb(limit)} ` +
    `per stored backtest result. Rebalance less often, hold fewer names, keep fewer metrics in the screen or shorten the period.`
  );
}

/** Estimated stored size of a result keeping `positions` holdings with `metrics` metric values each. */
export function estimatedResultBytes(positions: number, metrics: number): number {
  return positions * (ESTIMATED_RESULT_BYTES_PER_POSITION + ESTIMATED_RESULT_BYTES_PER_METRIC * metrics);
}

/**
 * The first limit the run would exceed, as a message for the user; null when it fits.
 * `metrics`: how many metric values each holding keeps (the screen's displayed metrics).
 */
export function limitProblem(params: BacktestParams, listedCompanies: number, metrics = 0): string | null {
  const dates = estimatedRebalanceDates(params);
  const held = params.topN === 'all' ? listedCompanies : Math.min(params.topN, Math.max(1, listedCompanies));
  const rows = dates * held;
  if (rows > MAX_HOLDING_ROWS)
    return (
      `This backtest would store about ${n(rows)} positions (${n(dates)} rebalance dates × ${n(held)} names held); ` +
      `the limit is ${n(MAX_HOLDING_ROWS)} positions per backtest. Rebalance less often, hold fewer names or shorten the period.`
    );
  const bytes = estimatedResultBytes(rows, metrics);
  const limit = storedResultLimit();
  if (bytes > limit) return storedSizeProblem(bytes, true, limit);
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
