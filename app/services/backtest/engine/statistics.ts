import { fromEpochDay } from '../../dates';
import { monthOrdinal } from './calendar';
import type { BacktestStatistics, Drawdown, MonthlyReturnRow } from './types';

// Textbook statistics of a daily equity curve (each definition is in METHODOLOGY below). Daily
// returns are simple returns close to close; annualisation uses 252 trading days; years are
// calendar days / 365.25. Sample (n − 1) standard deviations and covariances.

export const TRADING_DAYS_PER_YEAR = 252;
const DAYS_PER_YEAR = 365.25;

export type StatisticsInputs = {
  days: Int32Array;
  equity: Float64Array;
  benchmark: Float64Array;
  /** Annual rate (0.02 = 2 %). */
  riskFreeRate: number;
  /** Calendar indices where each rebalance period starts (trade days), ascending. */
  periodStarts: Int32Array;
  /** One-way turnover of each rebalance (Σ |traded| / 2 / value before). */
  turnovers: Float64Array;
  totalCosts: number;
};

export function dailyReturns(curve: Float64Array): Float64Array {
  const r = new Float64Array(Math.max(0, curve.length - 1));
  for (let i = 1; i < curve.length; i++) r[i - 1] = curve[i] / curve[i - 1] - 1;
  return r;
}

export function mean(x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return x.length ? s / x.length : Number.NaN;
}

/** Sample standard deviation (n − 1). */
export function stdev(x: Float64Array): number {
  return Math.sqrt(covariance(x, x));
}

export function covariance(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  if (n < 2) return Number.NaN;
  const mx = mean(x);
  const my = mean(y);
  let s = 0;
  for (let i = 0; i < n; i++) s += (x[i] - mx) * (y[i] - my);
  return s / (n - 1);
}

/** Daily rate equivalent to an annual one compounded over 252 days. */
export function dailyRiskFree(annual: number): number {
  return Math.pow(1 + annual, 1 / TRADING_DAYS_PER_YEAR) - 1;
}

export function yearsBetween(firstDay: number, lastDay: number): number {
  return (lastDay - firstDay) / DAYS_PER_YEAR;
}

export function cagr(first: number, last: number, years: number): number {
  return years > 0 && first > 0 ? Math.pow(last / first, 1 / years) - 1 : Number.NaN;
}

/** Annualised Sharpe ratio: mean daily excess return / its standard deviation × √252. */
export function sharpeRatio(returns: Float64Array, annualRiskFree: number): number | null {
  const rf = dailyRiskFree(annualRiskFree);
  const excess = returns.map((r) => r - rf);
  const sd = stdev(excess);
  return sd > 0 ? (mean(excess) / sd) * Math.sqrt(TRADING_DAYS_PER_YEAR) : null;
}

/** Annualised Sortino ratio: mean daily excess return / downside deviation × √252. */
export function sortinoRatio(returns: Float64Array, annualRiskFree: number): number | null {
  const rf = dailyRiskFree(annualRiskFree);
  let down = 0;
  let sum = 0;
  for (let i = 0; i < returns.length; i++) {
    const e = returns[i] - rf;
    sum += e;
    if (e < 0) down += e * e;
  }
  const dd = returns.length ? Math.sqrt(down / returns.length) : 0;
  return dd > 0 ? (sum / returns.length / dd) * Math.sqrt(TRADING_DAYS_PER_YEAR) : null;
}

/** value / running peak − 1 at every day. */
export function drawdownSeries(curve: Float64Array): Float64Array {
  const out = new Float64Array(curve.length);
  let peak = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < curve.length; i++) {
    if (curve[i] > peak) peak = curve[i];
    out[i] = curve[i] / peak - 1;
  }
  return out;
}

/** Deepest drawdown, the peak before it, its trough and the first day back at the peak. */
export function maxDrawdown(days: Int32Array, curve: Float64Array): Drawdown {
  let peakIdx = 0;
  let best = { dd: 0, peak: -1, trough: -1 };
  for (let i = 0; i < curve.length; i++) {
    if (curve[i] > curve[peakIdx]) peakIdx = i;
    const dd = curve[i] / curve[peakIdx] - 1;
    if (dd < best.dd) best = { dd, peak: peakIdx, trough: i };
  }
  if (best.trough < 0) return { maxDrawdown: 0, peakDate: null, troughDate: null, recoveryDate: null };
  let recovery = -1;
  for (let i = best.trough + 1; i < curve.length; i++)
    if (curve[i] >= curve[best.peak]) {
      recovery = i;
      break;
    }
  return {
    maxDrawdown: best.dd,
    peakDate: fromEpochDay(days[best.peak]),
    troughDate: fromEpochDay(days[best.trough]),
    recoveryDate: recovery < 0 ? null : fromEpochDay(days[recovery]),
  };
}

/** Beta = cov(rp, rb) / var(rb). */
export function beta(rp: Float64Array, rb: Float64Array): number | null {
  const v = covariance(rb, rb);
  return v > 0 ? covariance(rp, rb) / v : null;
}

/** Returns of each calendar month (last close of the month over the last close before it). */
export function periodReturns(days: Int32Array, curve: Float64Array, key: (day: number) => number): { key: number; ret: number }[] {
  const out: { key: number; ret: number }[] = [];
  let base = curve[0];
  let next = curve.length > 0 ? key(days[0]) : 0;
  for (let i = 0; i < curve.length; i++) {
    const k = next;
    if (i + 1 < curve.length) next = key(days[i + 1]);
    if (i === curve.length - 1 || next !== k) {
      out.push({ key: k, ret: curve[i] / base - 1 });
      base = curve[i];
    }
  }
  return out;
}

const monthKey = monthOrdinal;
const yearKey = (d: number) => Math.floor(monthOrdinal(d) / 12);

export function monthlyReturnTable(days: Int32Array, curve: Float64Array): MonthlyReturnRow[] {
  const rows: MonthlyReturnRow[] = [];
  const years = new Map(periodReturns(days, curve, yearKey).map((y) => [y.key, y.ret]));
  for (const { key, ret } of periodReturns(days, curve, monthKey)) {
    const year = Math.floor(key / 12);
    let row = rows[rows.length - 1];
    if (!row || row.year !== year) {
      row = { year, months: new Array<number | null>(12).fill(null), year_return: years.get(year) ?? Number.NaN };
      rows.push(row);
    }
    row.months[key % 12] = ret;
  }
  return rows;
}

const nullable = (x: number) => (Number.isFinite(x) ? x : null);
const extreme = (xs: number[], pick: (a: number, b: number) => number) => (xs.length ? xs.reduce((a, b) => pick(a, b)) : null);

export function computeStatistics(s: StatisticsInputs): BacktestStatistics {
  const { days, equity, benchmark } = s;
  const last = equity.length - 1;
  const years = yearsBetween(days[0], days[last]);
  const rp = dailyReturns(equity);
  const rb = dailyReturns(benchmark);
  const rf = dailyRiskFree(s.riskFreeRate);
  const growth = cagr(equity[0], equity[last], years);
  const dd = maxDrawdown(days, equity);
  const b = beta(rp, rb);
  const active = rp.map((r, i) => r - rb[i]);
  const te = stdev(active) * Math.sqrt(TRADING_DAYS_PER_YEAR);
  const months = periodReturns(days, equity, monthKey).map((m) => m.ret);
  const yearly = periodReturns(days, equity, yearKey).map((y) => y.ret);
  let hits = 0;
  let beats = 0;
  const periods = s.periodStarts.length;
  for (let k = 0; k < periods; k++) {
    const from = s.periodStarts[k];
    const to = k + 1 < periods ? s.periodStarts[k + 1] : last;
    const r = equity[to] / equity[from] - 1;
    if (r > 0) hits++;
    if (r > benchmark[to] / benchmark[from] - 1) beats++;
  }
  let turnover = 0;
  for (let i = 0; i < s.turnovers.length; i++) turnover += s.turnovers[i];
  return {
    startDate: fromEpochDay(days[0]),
    endDate: fromEpochDay(days[last]),
    years,
    totalReturn: equity[last] / equity[0] - 1,
    cagr: growth,
    annualVolatility: stdev(rp) * Math.sqrt(TRADING_DAYS_PER_YEAR),
    sharpe: sharpeRatio(rp, s.riskFreeRate),
    sortino: sortinoRatio(rp, s.riskFreeRate),
    calmar: dd.maxDrawdown < 0 ? nullable(growth / -dd.maxDrawdown) : null,
    ...dd,
    beta: b,
    alpha: b === null ? null : nullable((mean(rp) - rf - b * (mean(rb) - rf)) * TRADING_DAYS_PER_YEAR),
    trackingError: nullable(te),
    informationRatio: te > 0 ? (mean(active) * TRADING_DAYS_PER_YEAR) / te : null,
    benchmarkTotalReturn: benchmark[last] / benchmark[0] - 1,
    benchmarkCagr: cagr(benchmark[0], benchmark[last], years),
    annualTurnover: years > 0 ? turnover / years : 0,
    hitRate: periods ? hits / periods : null,
    hitRateVsBenchmark: periods ? beats / periods : null,
    totalCosts: s.totalCosts,
    costDrag: years > 0 ? s.totalCosts / mean(equity) / years : 0,
    bestMonth: extreme(months, Math.max),
    worstMonth: extreme(months, Math.min),
    bestYear: extreme(yearly, Math.max),
    worstYear: extreme(yearly, Math.min),
    monthlyReturns: monthlyReturnTable(days, equity),
  };
}
