import { fromEpochDay, toEpochDay } from '../../dates';
import { compileScreen, matchRanked, resultRow, type PreparedUniverse } from '../../screener/engine';
import type { MetricSnapshot } from '../../metrics/engine/types';
import { alignPrices, type AlignedPrices } from './aligned-prices';
import { Book, TradeLog, type Costs } from './book';
import { barAtOrBefore, lowerBound, signalIndices, tradingCalendar } from './calendar';
import { BACKTEST_ENGINE_VERSION } from './params';
import { indexOf, indexOfEach } from './permaticker-index';
import { universePreparer } from './prepare-universe';
import { TradeDayPrices } from './trade-day-prices';
import { computeStatistics, drawdownSeries } from './statistics';
import {
  BacktestCancelledError,
  BacktestInputError,
  type BacktestInputs,
  type BacktestResult,
  type Holding,
  type PriceSeries,
  type Rebalancing,
} from './types';
import { capWeights, targetWeights, trailingVolatility } from './weights';

// The backtest loop. Signal days are the last trading day of each rebalance period (calendar.ts);
// the calendar is cut into periods at the trade days:
//   1. on signal day s the screen is evaluated on that day's snapshot (point in time: prices up
//      to its close, facts filed before it, the universe as it was, delisted-later companies
//      included) and target weights are set;
//   2. at the close of the next trading day (s + 1) the portfolio trades to them, paying costs;
//   3. every close up to the next trade day is valued with the total-return index, and delisted
//      holdings become cash on their last day (and stay cash until the next trade).
// The signal uses only what was known at its close and trades happen one close later, so a jump
// on the signal day (or on the trade day itself) is never captured.
// For speed, prices are aligned to the calendar once (aligned-prices.ts), trade-day prices are read
// in batches (trade-day-prices.ts) and the curves are valued in batches, one security at a time
// (valuation.ts); every sum keeps the order of valuing period by period, so the numbers are the same.

export const INVERSE_VOLATILITY_WINDOW = 60;

export function runBacktest(inputs: BacktestInputs): BacktestResult {
  const steps = backtestSteps(inputs);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same run, one signal date per step, so a job running in a server process can give the
 * event loop a turn between steps (the engine stays synchronous and pure). Yields after each
 * signal date with its progress; returns the result.
 */
export function* backtestSteps(inputs: BacktestInputs): Generator<{ done: number; total: number }, BacktestResult, void> {
  const { params, screen } = inputs;
  const start = toEpochDay(params.start);
  const end = toEpochDay(params.end);
  const panel = preparedPanel(inputs.prices.series);
  const { series, perms } = panel;
  const tickers = new Map<number, string>();
  for (const m of inputs.securities) tickers.set(m.permaticker, m.ticker);
  const known = inputs.exchangeDays;
  const daysIn = (from: number, to: number) =>
    known ? known.subarray(lowerBound(known, from), lowerBound(known, to + 1)) : tradingCalendar(series, from, to);
  const calendar = daysIn(start, end);
  // Lookbacks (inverse volatility) count exchange days, which reach back before the start.
  let firstDay = start;
  for (const s of series) if (s.days.length > 0 && s.days[0] < firstDay) firstDay = s.days[0];
  const exchange = firstDay < start ? daysIn(firstDay, end) : calendar;
  const exchangeOffset = exchange.length - calendar.length;
  if (calendar.length < 2) throw new BacktestInputError(`No trading days between ${params.start} and ${params.end}`);
  const dates = Array.from(calendar, fromEpochDay);
  const benchmarkIndex = params.benchmark === 'equal_weight_universe' ? -1 : indexOf(perms, params.benchmark);
  const benchmarkSeries = params.benchmark === 'equal_weight_universe' ? null : benchmarkIndex < 0 ? undefined : series[benchmarkIndex];
  if (benchmarkSeries === undefined) throw new BacktestInputError(`The benchmark ${params.benchmark} has no prices`);

  const compiled = compileScreen(screen);
  const prepare = universePreparer(inputs.securities);
  const signals = signalIndices(calendar, params.rebalance);
  const costs: Costs = { rate: (params.commissionBps + params.slippageBps) / 10_000, fixed: params.fixedCostPerTrade };
  const noCosts: Costs = { rate: 0, fixed: 0 };

  const equity = new Float64Array(calendar.length);
  const benchmark = new Float64Array(calendar.length);
  const prices = panel.aligned(calendar);
  const tradePrices = new TradeDayPrices(
    prices,
    signals.map((s) => s + 1),
  );
  const book = new Book(prices, tradePrices, params.initialCapital, equity);
  const knownCurve = benchmarkSeries ? undefined : inputs.equalWeightCurve?.get();
  const ewCurve = knownCurve && knownCurve.length === calendar.length ? knownCurve : null;
  const ewBook = benchmarkSeries || ewCurve ? null : new Book(prices, tradePrices, params.initialCapital, benchmark);
  const equalWeights = new Float64Array(ewBook ? series.length : 0);
  const rebalances: Rebalancing[] = [];
  let delistedHoldings = 0;
  const benchBase = benchmarkSeries ? benchmarkBase(benchmarkSeries, calendar[0]) : 0;
  const execIndices: number[] = [];
  const log = inputs.curvesOnly
    ? null
    : new TradeLog(
        dates,
        series.map((s) => tickers.get(s.permaticker) ?? String(s.permaticker)),
        perms,
      );

  // Until the first trade everything is cash. Then period k runs from the trade day after signal
  // k to the day before the next trade; holdings only change at a period's first close.
  const firstTrade = signals.length > 0 ? signals[0] + 1 : calendar.length;
  book.closeRange(0, firstTrade - 1, null);
  ewBook?.closeRange(0, firstTrade - 1, null);
  for (let k = 0; k < signals.length; k++) {
    if (inputs.isCancelled?.()) throw new BacktestCancelledError();
    const s = signals[k];
    const signal = evaluateSignal(
      inputs,
      compiled,
      prepare(inputs.snapshotAt(dates[s], calendar[s])),
      prices,
      s,
      dates[s],
      ewBook !== null,
      { days: exchange, at: exchangeOffset + s },
    );
    inputs.onProgress?.(k + 1, signals.length);
    yield { done: k + 1, total: signals.length };
    const a = s + 1;
    const b = k + 1 < signals.length ? signals[k + 1] : calendar.length - 1;
    const valueBefore = book.value(k);
    const { tradedValue, cost } = book.rebalance(k, signal.targets, signal.weights, costs, log);
    rebalances.push({ ...signal.record, tradeDate: dates[a], valueBefore, tradedValue, cost });
    execIndices.push(a);
    delistedHoldings += book.closeRange(a, b, log);
    if (ewBook) {
      ewBook.rebalance(
        k,
        signal.universe,
        equalWeights.subarray(0, signal.universe.length).fill(1 / signal.universe.length),
        noCosts,
        null,
      );
      ewBook.closeRange(a, b, null);
    }
  }
  book.finish();
  ewBook?.finish();
  if (ewCurve) benchmark.set(ewCurve);
  else if (ewBook) inputs.equalWeightCurve?.set(benchmark.slice());
  if (benchmarkSeries) {
    const days = benchmarkSeries.days;
    let c = -1;
    for (let t = 0; t < calendar.length; t++) {
      while (c + 1 < days.length && days[c + 1] <= calendar[t]) c++;
      benchmark[t] = c < 0 || benchBase === 0 ? params.initialCapital : (params.initialCapital * benchmarkSeries.tri[c]) / benchBase;
    }
  }

  const statistics = computeStatistics({
    days: calendar,
    equity,
    benchmark,
    riskFreeRate: params.riskFreeRate,
    periodStarts: Int32Array.from(execIndices),
    turnovers: Float64Array.from(rebalances, (r) => (r.valueBefore > 0 ? r.tradedValue / 2 / r.valueBefore : 0)),
    totalCosts: rebalances.reduce((s, r) => s + r.cost, 0),
  });
  return {
    engineVersion: BACKTEST_ENGINE_VERSION,
    params,
    days: calendar,
    dates,
    equity,
    benchmark,
    drawdown: drawdownSeries(equity),
    statistics,
    rebalances,
    trades: log ? log.trades : [],
    delistedHoldings,
  };
}

type PreparedPanel = { series: PriceSeries[]; perms: Int32Array; aligned(calendar: Int32Array): AlignedPrices };

/**
 * A panel's series in permaticker order (a series' index is its identity inside a run) and its
 * alignments to calendars, kept per panel: a caller passing the same series list again (the
 * compute process keeps one per store and date range) skips the sort, the checks and the
 * alignment (~1 ms of a five-year run of the S&P 500). The series are never written to.
 */
const preparedPanels = new WeakMap<readonly PriceSeries[], PreparedPanel>();
/** Alignments one panel keeps (a few calendars: the date ranges its runs ask for). */
const ALIGNMENTS_KEPT = 4;

function preparedPanel(list: readonly PriceSeries[]): PreparedPanel {
  const hit = preparedPanels.get(list);
  if (hit) return hit;
  const series = [...list].sort((a, b) => a.permaticker - b.permaticker);
  for (let i = 0; i < series.length; i++) {
    const s = series[i];
    if (i > 0 && series[i - 1].permaticker === s.permaticker)
      throw new BacktestInputError(`The price panel has two series for permaticker ${s.permaticker}`);
    if (s.days.length !== s.tri.length || s.days.length !== s.close.length)
      throw new BacktestInputError(`Series ${s.permaticker}: days, tri and close differ in length`);
  }
  const perms = Int32Array.from(series, (s) => s.permaticker);
  // By the calendar's days: equal calendars align equally (a calendar is a fresh view each run).
  const alignments = new Map<string, { calendar: Int32Array; aligned: AlignedPrices }>();
  const aligned = (calendar: Int32Array) => {
    const key = `${calendar.length}:${calendar[0]}:${calendar[calendar.length - 1]}`;
    const kept = alignments.get(key);
    if (kept && sameDays(kept.calendar, calendar)) return kept.aligned;
    const fresh = { calendar: calendar.slice(), aligned: alignPrices(series, calendar) };
    alignments.set(key, fresh);
    if (alignments.size > ALIGNMENTS_KEPT) alignments.delete(alignments.keys().next().value as string);
    return fresh.aligned;
  };
  const prepared = { series, perms, aligned };
  preparedPanels.set(list, prepared);
  return prepared;
}

function sameDays(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The benchmark's value at the first calendar day (its first bar when it starts later). */
function benchmarkBase(s: PriceSeries, firstDay: number): number {
  const i = barAtOrBefore(s.days, firstDay);
  return s.tri[i < 0 ? 0 : i] ?? 0;
}

function evaluateSignal(
  inputs: BacktestInputs,
  compiled: ReturnType<typeof compileScreen>,
  prepared: PreparedUniverse,
  prices: AlignedPrices,
  signal: number,
  date: string,
  withUniverse: boolean,
  exchange: { days: Int32Array; at: number },
) {
  const { params } = inputs;
  const snapshot: MetricSnapshot = prepared.snapshot;
  const limit = params.topN === 'all' ? Number.POSITIVE_INFINITY : params.topN;
  const m = matchRanked(compiled, prepared, limit);
  const seriesOf = indexOfEach(snapshot.permatickers, prices.permaticker);
  // Picks: best first, skipping rows the price panel does not know (they cannot be traded).
  const rows: number[] = [];
  const picks: number[] = [];
  for (let i = 0; i < m.count && rows.length < limit; i++) {
    const row = m.at(i);
    const k = seriesOf[row];
    if (k < 0) continue;
    rows.push(row);
    picks.push(k);
  }
  const n = picks.length;
  const marketCap = new Float64Array(n).fill(Number.NaN);
  const volatility = new Float64Array(n).fill(Number.NaN);
  const caps = snapshot.values.market_cap;
  for (let i = 0; i < n; i++) {
    if (caps) marketCap[i] = caps[rows[i]];
    if (params.weighting === 'inverse_volatility')
      volatility[i] = trailingVolatility(
        prices.days[picks[i]],
        prices.tri[picks[i]],
        exchange.days,
        exchange.at,
        INVERSE_VOLATILITY_WINDOW,
      );
  }
  const weights = capWeights(targetWeights(params.weighting, n, { marketCap, volatility }), params.maxWeight);
  const holdings: Holding[] = [];
  for (let i = 0; i < (inputs.curvesOnly ? 0 : n); i++) {
    const row = resultRow(prepared, rows[i], compiled.columns, m);
    holdings.push({ permaticker: row.permaticker, ticker: row.ticker, weight: weights[i], rank: row.rank, values: row.values });
  }
  // The equal-weighted universe: every universe row with prices.
  const universe = new Int32Array(withUniverse ? m.universe.length : 0);
  let u = 0;
  if (withUniverse)
    for (const r of m.universe) {
      const k = seriesOf[r];
      if (k >= 0) universe[u++] = k;
    }
  return {
    targets: Int32Array.from(picks),
    weights,
    universe: universe.subarray(0, u),
    record: { signalDate: date, universeCount: m.universe.length, passCount: m.count, holdings },
  };
}
