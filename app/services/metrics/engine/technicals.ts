import { EMA_WINDOWS, RETURN_BARS, SMA_WINDOWS, TECHNICAL_WARMUP_BARS } from '../catalogue';
import { indices, metricIndex } from './metric-index';
import type { MarketReturns } from './types';

// Price-based metrics at one trading-day index. Windows count exchange trading days, not the
// security's own bars: the series is laid on the exchange calendar from its first bar to its last,
// and a day without a bar keeps the previous close (no trade that day: return 0, volume unknown).
// So a 12-month return always reaches back 252 exchange days, however many bars a stock skipped.
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
  /**
   * Daily total return at each index (tr[k] / tr[k-1] - 1; NaN at 0, and not finite where the
   * index is not): computed once, where every window of every day would divide again.
   */
  ret: Float64Array;
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
  calendar?: Int32Array,
): PriceSeries {
  const aligned = calendar ? onCalendar(dates, calendar) : null;
  const n = aligned ? aligned.days.length : dates.length;
  const factor = new Float64Array(n);
  const tr = new Float64Array(n);
  const price = new Float64Array(n);
  const closes = aligned ? new Float64Array(n) : close;
  const volumes = aligned ? new Float64Array(n) : volume;
  const ret = new Float64Array(n);
  const triKnown = tri.some((v) => Number.isFinite(v));
  for (let k = 0; k < n; k++) {
    // The bar on or before the day (aligned) or the day's own bar.
    const b = aligned ? aligned.bar[k] : k;
    const f = closeUnadj[b] / close[b];
    factor[k] = Number.isFinite(f) && f > 0 ? f : 1;
    tr[k] = triKnown ? tri[b] : close[b];
    price[k] = Number.isFinite(closeUnadj[b]) ? closeUnadj[b] : close[b];
    if (aligned) {
      closes[k] = close[b];
      volumes[k] = aligned.traded[k] ? volume[b] : Number.NaN;
    }
    ret[k] = k === 0 ? Number.NaN : tr[k] / tr[k - 1] - 1;
  }
  return { dates: aligned ? aligned.days : dates, close: closes, factor, tr, ret, volume: volumes, price, barsBefore };
}

/**
 * The exchange days from a series' first bar to its last (its own days included should the
 * calendar lack one), each with the index of the bar on or before it; null when the series
 * already has a bar on every such day (nothing to copy).
 */
export function onCalendar(dates: Int32Array, calendar: Int32Array): { days: Int32Array; bar: Int32Array; traded: Uint8Array } | null {
  const n = dates.length;
  if (n === 0) return null;
  const first = dates[0];
  const last = dates[n - 1];
  let lo = 0;
  let hi = calendar.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (calendar[mid] < first) lo = mid + 1;
    else hi = mid;
  }
  const c0 = lo;
  let c1 = c0;
  while (c1 < calendar.length && calendar[c1] <= last) c1++;
  // Dense: every calendar day in range is one of its bars, and it has no bar the calendar lacks.
  if (c1 - c0 === n && calendar[c0] === first) {
    let same = true;
    for (let k = 0; k < n && same; k++) same = calendar[c0 + k] === dates[k];
    if (same) return null;
  }
  const days = new Int32Array(c1 - c0 + n);
  const bar = new Int32Array(days.length);
  const traded = new Uint8Array(days.length);
  let k = 0;
  let j = 0;
  for (let c = c0; ; c++) {
    const cal = c < c1 ? calendar[c] : Number.POSITIVE_INFINITY;
    while (j < n && dates[j] < cal) {
      days[k] = dates[j];
      bar[k] = j;
      traded[k++] = 1;
      j++;
    }
    if (cal === Number.POSITIVE_INFINITY) break;
    if (j < n && dates[j] === cal) {
      days[k] = cal;
      bar[k] = j;
      traded[k++] = 1;
      j++;
    } else {
      days[k] = cal;
      bar[k] = j - 1;
      traded[k++] = 0;
    }
  }
  return { days: days.slice(0, k), bar: bar.subarray(0, k), traded: traded.subarray(0, k) };
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

// The EMA windows one by one, each EMA kept in a local (a register) through the loop below; a
// catalogue with another number of EMAs does not compile here.
const [N0, N1, N2, N3, N4]: readonly [number, number, number, number, number] = EMA_WINDOWS;
const [A0, A1, A2, A3, A4] = [N0, N1, N2, N3, N4].map((n) => 2 / (n + 1));
const N_MAX = Math.max(N0, N1, N2, N3, N4);
const emaScratch = new Float64Array(EMA_WINDOWS.length);
const RSI_BARS = 14;

/**
 * Every EMA (seeded with the SMA of its first n closes) and Wilder's RSI, over one trailing
 * warm-up window (path-independent of history length), in one pass over it: `emas` gets the EMAs
 * in EMA_WINDOWS order (unadjusted for the day's shares), the RSI is returned.
 *
 * Each smoother is a chain of steps that each wait on the one before; run one after another, the
 * processor idled on every step's latency (half the time of the technicals); side by side, it
 * overlaps the chains. Each value still sees the same operations in the same order as computed
 * alone, so the results are the same to the bit.
 */
function smoothers(close: Float64Array, i: number, emas: Float64Array | null, wantRsi: boolean): number {
  const start = Math.max(0, i - TECHNICAL_WARMUP_BARS + 1);
  let sum = 0;
  let e0 = Number.NaN;
  let e1 = Number.NaN;
  let e2 = Number.NaN;
  let e3 = Number.NaN;
  let e4 = Number.NaN;
  let gain = 0;
  let loss = 0;
  for (let k = start; k <= i; k++) {
    const c = close[k];
    // Bars of the window so far, this one included: an EMA starts from the mean of its first n.
    const at = k - start + 1;
    if (emas) {
      sum += c;
      if (at > N_MAX) {
        e0 += A0 * (c - e0);
        e1 += A1 * (c - e1);
        e2 += A2 * (c - e2);
        e3 += A3 * (c - e3);
        e4 += A4 * (c - e4);
      } else {
        if (at > N0) e0 += A0 * (c - e0);
        else if (at === N0) e0 = sum / N0;
        if (at > N1) e1 += A1 * (c - e1);
        else if (at === N1) e1 = sum / N1;
        if (at > N2) e2 += A2 * (c - e2);
        else if (at === N2) e2 = sum / N2;
        if (at > N3) e3 += A3 * (c - e3);
        else if (at === N3) e3 = sum / N3;
        if (at > N4) e4 += A4 * (c - e4);
        else if (at === N4) e4 = sum / N4;
      }
    }
    if (wantRsi && at > 1) {
      const d = c - close[k - 1];
      if (at <= RSI_BARS + 1) {
        if (d > 0) gain += d;
        else loss -= d;
        if (at === RSI_BARS + 1) {
          gain /= RSI_BARS;
          loss /= RSI_BARS;
        }
      } else {
        gain = (gain * (RSI_BARS - 1) + (d > 0 ? d : 0)) / RSI_BARS;
        loss = (loss * (RSI_BARS - 1) + (d < 0 ? -d : 0)) / RSI_BARS;
      }
    }
  }
  if (emas) {
    emas[0] = e0;
    emas[1] = e1;
    emas[2] = e2;
    emas[3] = e3;
    emas[4] = e4;
  }
  if (!wantRsi || i - start < RSI_BARS) return Number.NaN;
  if (loss === 0) return gain === 0 ? 50 : 100;
  return 100 - 100 / (1 + gain / loss);
}

/** Sample standard deviation of the last n daily returns (`PriceSeries.ret`), annualised. */
function volatility(ret: Float64Array, i: number, n: number): number {
  if (i < n) return Number.NaN;
  let sum = 0;
  let sq = 0;
  let count = 0;
  for (let k = i - n + 1; k <= i; k++) {
    const r = ret[k];
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

/** The market's return on each of a series' days (NaN where it has none), kept per series and market. */
const marketOnDays = new WeakMap<PriceSeries, { market: MarketReturns; ret: Float64Array }>();

function marketReturnsOn(p: PriceSeries, market: MarketReturns): Float64Array {
  const kept = marketOnDays.get(p);
  if (kept?.market === market) return kept.ret;
  const ret = new Float64Array(p.dates.length);
  for (let k = 0; k < ret.length; k++) ret[k] = market.ret[p.dates[k] - market.day0] ?? Number.NaN;
  marketOnDays.set(p, { market, ret });
  return ret;
}

/** Beta and correlation of the last n daily returns against the market. */
export function betaAndCorrelation(p: PriceSeries, i: number, n: number, market: MarketReturns | null): [number, number] {
  if (!market || i < n) return [Number.NaN, Number.NaN];
  const marketRet = marketReturnsOn(p, market);
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  let count = 0;
  for (let k = i - n + 1; k <= i; k++) {
    const r = p.ret[k];
    const m = marketRet[k];
    if (!Number.isFinite(r) || !Number.isFinite(m)) continue;
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

/** Mean volume of the days in the window that traded (n/a when under 80 % of them did). */
function avgVolume(p: PriceSeries, i: number, n: number, dollars: boolean): number {
  if (i + 1 < n) return Number.NaN;
  let s = 0;
  let count = 0;
  for (let k = i - n + 1; k <= i; k++) {
    const v = p.volume[k];
    if (!Number.isFinite(v)) continue;
    // Shares traded before a split are restated into the evaluation day's shares.
    s += dollars ? v * p.price[k] : (v * p.factor[k]) / p.factor[i];
    count++;
  }
  return count >= Math.ceil(n * 0.8) ? s / count : Number.NaN;
}

/**
 * Which groups of technicals a mask of wanted metrics (1 per metric index) needs; every group
 * without a wanted metric is skipped (its slots in the row are left as they were). A backtest
 * evaluating a few metrics on every trading day pays only for those.
 */
export type TechnicalGroups = {
  volume: boolean;
  ytd: boolean;
  sma: boolean;
  ema: boolean;
  rsi: boolean;
  volatility: boolean;
  beta: boolean;
  year: boolean;
};

const GROUP_METRICS: Record<keyof TechnicalGroups, readonly number[]> = {
  volume: [I.avg_volume_20d, I.avg_volume_50d, I.avg_volume_3m, I.avg_dollar_volume_20d, I.relative_volume],
  ytd: [I.ret_ytd],
  sma: [...SMA.flatMap(([, a, b]) => [a, b]), I.sma50_to_sma200],
  ema: [...EMA.flatMap(([, a, b]) => [a, b]), I.macd, I.macd_pct],
  rsi: [I.rsi14],
  volatility: [I.volatility_1m, I.volatility_3m, I.volatility_1y, I.sharpe_1y],
  beta: [I.beta_1y, I.beta_3y, I.correlation_1y],
  year: [
    I.high_52w,
    I.low_52w,
    I.dist_52w_high,
    I.dist_52w_low,
    I.days_since_52w_high,
    I.max_drawdown_1y,
    I.downside_volatility_1y,
    I.sharpe_1y,
  ],
};

export const ALL_TECHNICALS: TechnicalGroups = {
  volume: true,
  ytd: true,
  sma: true,
  ema: true,
  rsi: true,
  volatility: true,
  beta: true,
  year: true,
};

export function technicalGroups(need: Uint8Array): TechnicalGroups {
  const any = (ids: readonly number[]) => ids.some((m) => need[m] === 1);
  const g = {} as TechnicalGroups;
  for (const k of Object.keys(GROUP_METRICS) as (keyof TechnicalGroups)[]) g[k] = any(GROUP_METRICS[k]);
  return g;
}

export function computeTechnicals(
  p: PriceSeries,
  i: number,
  day: number,
  market: MarketReturns | null,
  row: Float64Array,
  groups: TechnicalGroups = ALL_TECHNICALS,
): void {
  const price = p.price[i];
  const f = p.factor[i];
  row[I.price] = price;
  row[I.price_change_1d] = ret(p.tr, i, 1);
  row[I.volume] = p.volume[i];
  row[I.dollar_volume] = p.volume[i] * price;
  if (groups.volume) {
    row[I.avg_volume_20d] = avgVolume(p, i, 20, false);
    row[I.avg_volume_50d] = avgVolume(p, i, 50, false);
    row[I.avg_volume_3m] = avgVolume(p, i, 63, false);
    row[I.avg_dollar_volume_20d] = avgVolume(p, i, 20, true);
    row[I.relative_volume] = row[I.avg_volume_20d] > 0 ? p.volume[i] / row[I.avg_volume_20d] : Number.NaN;
  }
  row[I.trading_days] = p.barsBefore + i + 1;

  for (const [idx, n] of RET) row[idx] = ret(p.tr, i, n);
  row[I.ret_12m_ex_1m] = i >= 252 ? p.tr[i - 21] / p.tr[i - 252] - 1 : Number.NaN;
  row[I.ret_3y_annualised] = row[I.ret_3y] > -1 ? Math.pow(1 + row[I.ret_3y], 1 / 3) - 1 : Number.NaN;
  row[I.ret_5y_annualised] = row[I.ret_5y] > -1 ? Math.pow(1 + row[I.ret_5y], 1 / 5) - 1 : Number.NaN;

  if (groups.ytd) {
    // Year to date: from the last close of the previous calendar year.
    const jan1 = Date.UTC(new Date(day * 86_400_000).getUTCFullYear(), 0, 1) / 86_400_000;
    let k = i;
    while (k >= 0 && p.dates[k] >= jan1) k--;
    row[I.ret_ytd] = k >= 0 ? p.tr[i] / p.tr[k] - 1 : Number.NaN;
  }

  if (groups.sma) {
    for (const [n, idx, dist] of SMA) {
      const v = sma(p.close, i, n) * f;
      row[idx] = v;
      row[dist] = v > 0 ? price / v - 1 : Number.NaN;
    }
    row[I.sma50_to_sma200] = row[I.sma200] > 0 ? row[I.sma50] / row[I.sma200] - 1 : Number.NaN;
  }
  if (groups.ema || groups.rsi) {
    const rsi = smoothers(p.close, i, groups.ema ? emaScratch : null, groups.rsi);
    if (groups.ema) {
      EMA.forEach(([, idx, dist], w) => {
        const v = emaScratch[w] * f;
        row[idx] = v;
        row[dist] = v > 0 ? price / v - 1 : Number.NaN;
      });
      row[I.macd] = row[I.ema12] - row[I.ema26];
      row[I.macd_pct] = price > 0 ? row[I.macd] / price : Number.NaN;
    }
    if (groups.rsi) row[I.rsi14] = rsi;
  }

  if (groups.volatility || groups.year) {
    row[I.volatility_1m] = volatility(p.ret, i, 21);
    row[I.volatility_3m] = volatility(p.ret, i, 63);
    row[I.volatility_1y] = volatility(p.ret, i, 252);
  }
  if (groups.beta) {
    const [b1, c1] = betaAndCorrelation(p, i, 252, market);
    row[I.beta_1y] = b1;
    row[I.correlation_1y] = c1;
    row[I.beta_3y] = betaAndCorrelation(p, i, 756, market)[0];
  }
  if (groups.year || groups.volatility) oneYear(p, i, f, price, row);
}

/** One pass over the last year for downside deviation, mean return, drawdown, high and low. */
function oneYear(p: PriceSeries, i: number, f: number, price: number, row: Float64Array): void {
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
      const r = p.ret[j];
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
