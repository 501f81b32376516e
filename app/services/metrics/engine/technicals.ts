import { EMA_WINDOWS, RETURN_BARS, SMA_WINDOWS, TECHNICAL_WARMUP_BARS } from '../catalogue';
import { indices, metricIndex } from './metric-index';
import type { MarketReturns } from './types';

// Price-based metrics at one trading-day index. Windows count trading days of the security.
// Levels (SMA, EMA, 52-week high) are computed on split-adjusted closes and rescaled into the
// shares of the evaluation day (× factor[i]), so they compare with `price` as traded that day and
// a split that happened later never leaks into an earlier date.

/** Per-security arrays prepared once. */
export type PriceSeries = {
  dates: Int32Array;
  close: Float64Array;
  /** close_unadj / close: 1 after the last split; NaN-free. */
  factor: Float64Array;
  /** Total-return index, close where the index is unknown. */
  tr: Float64Array;
  volume: Float64Array;
  price: Float64Array;
  /** Bars of history before index 0 that were not loaded. */
  barsBefore: number;
};

const I = indices([
  'price',
  'price_change_1d',
  'volume',
  'dollar_volume',
  'avg_volume_20d',
  'avg_volume_50d',
  'avg_volume_3m',
  'avg_dollar_volume_20d',
  'relative_volume',
  'high_52w',
  'low_52w',
  'trading_days',
  'ret_ytd',
  'ret_12m_ex_1m',
  'ret_3y_annualised',
  'ret_5y_annualised',
  'ret_3y',
  'ret_5y',
  'sma50_to_sma200',
  'macd',
  'macd_pct',
  'rsi14',
  'volatility_1m',
  'volatility_3m',
  'volatility_1y',
  'downside_volatility_1y',
  'beta_1y',
  'beta_3y',
  'correlation_1y',
  'sharpe_1y',
  'max_drawdown_1y',
  'dist_52w_high',
  'dist_52w_low',
  'days_since_52w_high',
  'sma50',
  'sma200',
  'ema12',
  'ema26',
] as const);
const RET = Object.entries(RETURN_BARS).map(([id, n]) => [metricIndex(id), n] as const);
const SMA = SMA_WINDOWS.map((n) => [n, metricIndex(`sma${n}`), metricIndex(`price_to_sma${n}`)] as const);
const EMA = EMA_WINDOWS.map((n) => [n, metricIndex(`ema${n}`), metricIndex(`price_to_ema${n}`)] as const);

const SQRT_252 = Math.sqrt(252);

export function preparePrices(
  dates: Int32Array,
  close: Float64Array,
  closeUnadj: Float64Array,
  tri: Float64Array,
  volume: Float64Array,
  barsBefore = 0,
): PriceSeries {
  const n = dates.length;
  const factor = new Float64Array(n);
  const tr = new Float64Array(n);
  const price = new Float64Array(n);
  const triKnown = tri.some((v) => Number.isFinite(v));
  for (let k = 0; k < n; k++) {
    const f = closeUnadj[k] / close[k];
    factor[k] = Number.isFinite(f) && f > 0 ? f : 1;
    tr[k] = triKnown ? tri[k] : close[k];
    price[k] = Number.isFinite(closeUnadj[k]) ? closeUnadj[k] : close[k];
  }
  return { dates, close, factor, tr, volume, price, barsBefore };
}

function ret(tr: Float64Array, i: number, back: number): number {
  if (i - back < 0) return Number.NaN;
  const r = tr[i] / tr[i - back] - 1;
  return Number.isFinite(r) ? r : Number.NaN;
}

function sma(close: Float64Array, i: number, n: number): number {
  if (i + 1 < n) return Number.NaN;
  let s = 0;
  for (let k = i - n + 1; k <= i; k++) s += close[k];
  return s / n;
}

/** EMA seeded with the SMA of the first n closes of a trailing warm-up window (path-independent of history length). */
function ema(close: Float64Array, i: number, n: number): number {
  const start = Math.max(0, i - TECHNICAL_WARMUP_BARS + 1);
  if (i - start + 1 < n) return Number.NaN;
  let e = 0;
  for (let k = start; k < start + n; k++) e += close[k];
  e /= n;
  const a = 2 / (n + 1);
  for (let k = start + n; k <= i; k++) e += a * (close[k] - e);
  return e;
}

/** Wilder's RSI over the trailing warm-up window. */
export function rsi(close: Float64Array, i: number, n = 14): number {
  const start = Math.max(0, i - TECHNICAL_WARMUP_BARS + 1);
  if (i - start < n) return Number.NaN;
  let gain = 0;
  let loss = 0;
  for (let k = start + 1; k <= start + n; k++) {
    const d = close[k] - close[k - 1];
    if (d > 0) gain += d;
    else loss -= d;
  }
  gain /= n;
  loss /= n;
  for (let k = start + n + 1; k <= i; k++) {
    const d = close[k] - close[k - 1];
    gain = (gain * (n - 1) + (d > 0 ? d : 0)) / n;
    loss = (loss * (n - 1) + (d < 0 ? -d : 0)) / n;
  }
  if (loss === 0) return gain === 0 ? 50 : 100;
  return 100 - 100 / (1 + gain / loss);
}

/** Sample standard deviation of the last n daily returns, annualised. */
function volatility(tr: Float64Array, i: number, n: number): number {
  if (i < n) return Number.NaN;
  let sum = 0;
  let sq = 0;
  let count = 0;
  for (let k = i - n + 1; k <= i; k++) {
    const r = tr[k] / tr[k - 1] - 1;
    if (!Number.isFinite(r)) continue;
    sum += r;
    sq += r * r;
    count++;
  }
  if (count < Math.ceil(n * 0.8) || count < 2) return Number.NaN;
  const mean = sum / count;
  const variance = (sq - count * mean * mean) / (count - 1);
  return Math.sqrt(Math.max(0, variance)) * SQRT_252;
}

/** Beta and correlation of the last n daily returns against the market. */
export function betaAndCorrelation(p: PriceSeries, i: number, n: number, market: MarketReturns | null): [number, number] {
  if (!market || i < n) return [Number.NaN, Number.NaN];
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  let count = 0;
  for (let k = i - n + 1; k <= i; k++) {
    const r = p.tr[k] / p.tr[k - 1] - 1;
    const m = market.ret[p.dates[k] - market.day0];
    if (!Number.isFinite(r) || m === undefined || !Number.isFinite(m)) continue;
    sx += m;
    sy += r;
    sxx += m * m;
    syy += r * r;
    sxy += m * r;
    count++;
  }
  if (count < Math.ceil(n * 0.8)) return [Number.NaN, Number.NaN];
  const cov = sxy - (sx * sy) / count;
  const vm = sxx - (sx * sx) / count;
  const vr = syy - (sy * sy) / count;
  const beta = vm > 0 ? cov / vm : Number.NaN;
  const corr = vm > 0 && vr > 0 ? cov / Math.sqrt(vm * vr) : Number.NaN;
  return [beta, corr];
}

function avgVolume(p: PriceSeries, i: number, n: number, dollars: boolean): number {
  if (i + 1 < n) return Number.NaN;
  let s = 0;
  for (let k = i - n + 1; k <= i; k++) {
    const v = p.volume[k];
    if (!Number.isFinite(v)) return Number.NaN;
    // Shares traded before a split are restated into the evaluation day's shares.
    s += dollars ? v * p.price[k] : (v * p.factor[k]) / p.factor[i];
  }
  return s / n;
}

export function computeTechnicals(p: PriceSeries, i: number, day: number, market: MarketReturns | null, row: Float64Array): void {
  const price = p.price[i];
  const f = p.factor[i];
  row[I.price] = price;
  row[I.price_change_1d] = ret(p.tr, i, 1);
  row[I.volume] = p.volume[i];
  row[I.dollar_volume] = p.volume[i] * price;
  row[I.avg_volume_20d] = avgVolume(p, i, 20, false);
  row[I.avg_volume_50d] = avgVolume(p, i, 50, false);
  row[I.avg_volume_3m] = avgVolume(p, i, 63, false);
  row[I.avg_dollar_volume_20d] = avgVolume(p, i, 20, true);
  row[I.relative_volume] = row[I.avg_volume_20d] > 0 ? p.volume[i] / row[I.avg_volume_20d] : Number.NaN;
  row[I.trading_days] = p.barsBefore + i + 1;

  for (const [idx, n] of RET) row[idx] = ret(p.tr, i, n);
  row[I.ret_12m_ex_1m] = i >= 252 ? p.tr[i - 21] / p.tr[i - 252] - 1 : Number.NaN;
  row[I.ret_3y_annualised] = row[I.ret_3y] > -1 ? Math.pow(1 + row[I.ret_3y], 1 / 3) - 1 : Number.NaN;
  row[I.ret_5y_annualised] = row[I.ret_5y] > -1 ? Math.pow(1 + row[I.ret_5y], 1 / 5) - 1 : Number.NaN;

  // Year to date: from the last close of the previous calendar year.
  const jan1 = Date.UTC(new Date(day * 86_400_000).getUTCFullYear(), 0, 1) / 86_400_000;
  let k = i;
  while (k >= 0 && p.dates[k] >= jan1) k--;
  row[I.ret_ytd] = k >= 0 ? p.tr[i] / p.tr[k] - 1 : Number.NaN;

  for (const [n, idx, dist] of SMA) {
    const v = sma(p.close, i, n) * f;
    row[idx] = v;
    row[dist] = v > 0 ? price / v - 1 : Number.NaN;
  }
  for (const [n, idx, dist] of EMA) {
    const v = ema(p.close, i, n) * f;
    row[idx] = v;
    row[dist] = v > 0 ? price / v - 1 : Number.NaN;
  }
  row[I.sma50_to_sma200] = row[I.sma200] > 0 ? row[I.sma50] / row[I.sma200] - 1 : Number.NaN;
  row[I.macd] = row[I.ema12] - row[I.ema26];
  row[I.macd_pct] = price > 0 ? row[I.macd] / price : Number.NaN;
  row[I.rsi14] = rsi(p.close, i);

  row[I.volatility_1m] = volatility(p.tr, i, 21);
  row[I.volatility_3m] = volatility(p.tr, i, 63);
  row[I.volatility_1y] = volatility(p.tr, i, 252);
  const [b1, c1] = betaAndCorrelation(p, i, 252, market);
  row[I.beta_1y] = b1;
  row[I.correlation_1y] = c1;
  row[I.beta_3y] = betaAndCorrelation(p, i, 756, market)[0];

  // One pass over the last year for downside deviation, mean return, drawdown, high and low.
  const from = Math.max(0, i - 251);
  let hi = Number.NEGATIVE_INFINITY;
  let hiAt = -1;
  let lo = Number.POSITIVE_INFINITY;
  let peak = Number.NEGATIVE_INFINITY;
  let maxDd = 0;
  let down = 0;
  let sum = 0;
  let count = 0;
  for (let j = from; j <= i; j++) {
    const c = p.close[j];
    if (c >= hi) {
      hi = c;
      hiAt = j;
    }
    if (c < lo) lo = c;
    const t = p.tr[j];
    if (t > peak) peak = t;
    const dd = t / peak - 1;
    if (dd < maxDd) maxDd = dd;
    if (j > 0 && i >= 252) {
      const r = t / p.tr[j - 1] - 1;
      if (Number.isFinite(r)) {
        sum += r;
        down += r < 0 ? r * r : 0;
        count++;
      }
    }
  }
  row[I.high_52w] = hi * f;
  row[I.low_52w] = lo * f;
  row[I.dist_52w_high] = hi > 0 ? price / (hi * f) - 1 : Number.NaN;
  row[I.dist_52w_low] = lo > 0 ? price / (lo * f) - 1 : Number.NaN;
  row[I.days_since_52w_high] = i - hiAt;
  const fullYear = i >= 252;
  row[I.max_drawdown_1y] = fullYear ? maxDd : Number.NaN;
  row[I.downside_volatility_1y] = fullYear && count > 0 ? Math.sqrt(down / count) * SQRT_252 : Number.NaN;
  row[I.sharpe_1y] = fullYear && row[I.volatility_1y] > 0 ? ((sum / count) * 252) / row[I.volatility_1y] : Number.NaN;
}
