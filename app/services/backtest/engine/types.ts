import type { IsoDate } from '../../dates';
import type { MetricSnapshot } from '../../metrics/engine/types';
import type { SecurityMeta } from '../../screener/engine/types';
import type { Screen } from '../../screener/model';
import type { BacktestParams } from './params';

// Inputs and outputs of the backtest engine. The engine is pure: prices, snapshots and
// securities come in (the caller decides whether snapshots are read from storage or computed),
// numbers come out. Days are epoch days (dates.ts); NaN inside arrays means "no value".

export type { BacktestParams, BacktestParamsInput, Rebalance } from './params';

/** One security's daily bars, trading days ascending. */
export type PriceSeries = {
  permaticker: number;
  /** Trading days (epoch days) ascending. */
  days: Int32Array;
  /** Total-return index: dividends reinvested, splits handled. Valuation uses only this. */
  tri: Float64Array;
  /** Split-adjusted close, for the trade log's prices and share counts. */
  close: Float64Array;
  /** Delisted: its last bar is its last price, and a holding becomes cash on that day. */
  delisted: boolean;
};

/** Every security that may be held or benchmarked. Order does not matter. */
export type PricePanel = { series: PriceSeries[] };

export type BacktestInputs = {
  /** The screen as it was when the backtest was asked for. */
  screen: Screen;
  params: BacktestParams;
  prices: PricePanel;
  /** Descriptive fields of every security that can appear in a snapshot (delisted ones too). */
  securities: SecurityMeta[];
  /** Every metric as known at the close of `date` (point in time). Called once per signal date. */
  snapshotAt: (date: IsoDate, day: number) => MetricSnapshot;
  /** Called after each signal date; `done` of `total` signal dates. */
  onProgress?: (done: number, total: number) => void;
  /** Checked before each signal date; true stops the run with BacktestCancelledError. */
  isCancelled?: () => boolean;
  /**
   * Every day on which any series of `prices` has a bar, ascending, when the caller knows it
   * already (the store's calendar, computed once): saves two passes over every bar of the panel.
   */
  exchangeDays?: Int32Array;
  /**
   * Keeps the equal-weighted universe benchmark's curve between runs that share it: it depends on
   * the universe, the prices, the dates and the capital, never on the rules or the ranking, so a
   * caller that knows two runs share those (same store version, universe and params) skips
   * valuing every listed security again. `get` returns the curve of an earlier run or nothing.
   */
  equalWeightCurve?: { get(): Float64Array | undefined; set(curve: Float64Array): void };
  /**
   * Only the curves and the statistics are wanted (the survivors-only comparison): the run keeps
   * no trade log and no holdings (its `trades` and each rebalance's `holdings` are empty), which
   * makes it cheaper. The curves and statistics are the same as a full run's.
   */
  curvesOnly?: boolean;
};

export class BacktestCancelledError extends Error {
  constructor() {
    super('The backtest was cancelled');
    this.name = 'BacktestCancelledError';
  }
}

/** The inputs cannot give a backtest (no trading days in the range, unknown benchmark…). */
export class BacktestInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BacktestInputError';
  }
}

export type Holding = {
  permaticker: number;
  ticker: string;
  /** Target weight set at the trade (after the cap); sums to ≤ 1, the rest is cash. */
  weight: number;
  /** The screen's rank on the signal date (1 = best), null without a ranking. */
  rank: number | null;
  /** The screen's rule, ranking and column metrics on the signal date (null = n/a). */
  values: Record<string, number | null>;
};

export type Rebalancing = {
  /** The close whose data chose the holdings. */
  signalDate: IsoDate;
  /** The next trading day: trades happen at its close. */
  tradeDate: IsoDate;
  universeCount: number;
  passCount: number;
  holdings: Holding[];
  /** Portfolio value just before the trades. */
  valueBefore: number;
  /** Σ |trade value|. */
  tradedValue: number;
  cost: number;
};

export type TradeReason = 'rebalance' | 'delisted';

export type Trade = {
  date: IsoDate;
  permaticker: number;
  ticker: string;
  side: 'buy' | 'sell';
  reason: TradeReason;
  /** Traded value (always ≥ 0). */
  value: number;
  /** Close on the trade date (split-adjusted). */
  price: number;
  shares: number;
  /** Commission + slippage + fixed cost of this trade; 0 for delisting proceeds. */
  cost: number;
};

export type Drawdown = {
  /** Most negative drawdown, ≤ 0 (−0.25 = 25 % below the peak). */
  maxDrawdown: number;
  peakDate: IsoDate | null;
  troughDate: IsoDate | null;
  /** First date back at the peak value; null when not recovered by the end. */
  recoveryDate: IsoDate | null;
};

export type MonthlyReturnRow = {
  year: number;
  /** January … December; null where the backtest has no data. */
  months: (number | null)[];
  /** The year's return (a partial year covers only its own days). */
  year_return: number;
};

export type BacktestStatistics = Drawdown & {
  startDate: IsoDate;
  endDate: IsoDate;
  years: number;
  totalReturn: number;
  cagr: number;
  annualVolatility: number;
  sharpe: number | null;
  sortino: number | null;
  calmar: number | null;
  beta: number | null;
  /** Jensen's alpha, annualised. */
  alpha: number | null;
  trackingError: number | null;
  informationRatio: number | null;
  benchmarkTotalReturn: number;
  benchmarkCagr: number;
  /** One-way turnover per year (Σ |traded| / 2 / value before trading, per year). */
  annualTurnover: number;
  /** Share of rebalance periods with a positive return. */
  hitRate: number | null;
  /** Share of rebalance periods beating the benchmark. */
  hitRateVsBenchmark: number | null;
  totalCosts: number;
  /** Costs per year as a fraction of the average equity. */
  costDrag: number;
  bestMonth: number | null;
  worstMonth: number | null;
  bestYear: number | null;
  worstYear: number | null;
  monthlyReturns: MonthlyReturnRow[];
};

export type BacktestResult = {
  engineVersion: string;
  params: BacktestParams;
  /** Calendar of the run: every trading day in [start, end] of the panel. */
  days: Int32Array;
  dates: IsoDate[];
  /** Portfolio value at each close, starting at params.initialCapital. */
  equity: Float64Array;
  /** Benchmark scaled to the same initial capital, same dates. */
  benchmark: Float64Array;
  /** equity / running peak − 1 (≤ 0). */
  drawdown: Float64Array;
  statistics: BacktestStatistics;
  rebalances: Rebalancing[];
  trades: Trade[];
  /** Holdings that were turned into cash by a delisting. */
  delistedHoldings: number;
};
