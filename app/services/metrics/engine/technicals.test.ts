import { describe, expect, it } from 'vitest';
import { fixtureSecurity } from '../testing/fixtures';
import { equalWeightMarket, evaluateAt } from './evaluate';
import { metricValue } from './snapshot';
import { fromEpochDay } from '../../dates';
import { EMA_WINDOWS, TECHNICAL_WARMUP_BARS } from '../catalogue';
import { mulberry32 } from '../testing/synthetic-universe';
import { metricIndex, N_METRICS } from './metric-index';
import { computeTechnicals, preparePrices } from './technicals';

describe('technicals', () => {
  it('computes SMA and the distance of price from it', () => {
    const closes = Array.from({ length: 250 }, (_, k) => k + 1);
    const sec = fixtureSecurity({ start: '2023-01-02', close: closes });
    const last = fromEpochDay(sec.dates[249]);
    const snap = evaluateAt({ securities: [sec], market: null }, last);
    // Mean of 201..250 and of 31..250.
    expect(metricValue(snap, 1, 'sma50')).toBe(225.5);
    expect(metricValue(snap, 1, 'sma200')).toBe(150.5);
    expect(metricValue(snap, 1, 'price_to_sma200')).toBeCloseTo(250 / 150.5 - 1, 12);
    expect(metricValue(snap, 1, 'ret_1w')).toBeCloseTo(250 / 245 - 1, 12);
    expect(metricValue(snap, 1, 'ret_12m')).toBeNull(); // 250 bars: no close 252 bars back
    expect(metricValue(snap, 1, 'high_52w')).toBe(250);
    expect(metricValue(snap, 1, 'low_52w')).toBe(1);
    expect(metricValue(snap, 1, 'dist_52w_high')).toBe(0);
  });

  it("computes Wilder's RSI from average gains and losses", () => {
    // 14 changes: seven gains of +1, seven losses of −0.5 → RS = 7/3.5 = 2 → RSI = 100 − 100/3.
    const closes = [100];
    for (let k = 0; k < 14; k++) closes.push(closes[k] + (k % 2 === 0 ? 1 : -0.5));
    const sec = fixtureSecurity({ start: '2024-01-01', close: closes });
    const snap = evaluateAt({ securities: [sec], market: null }, fromEpochDay(sec.dates[14]));
    expect(metricValue(snap, 1, 'rsi14')).toBeCloseTo(100 - 100 / 3, 10);
    // One more bar (+1) is smoothed in: gain = (0.5·13 + 1)/14, loss = (0.25·13)/14.
    closes.push(closes[14] + 1);
    const sec2 = fixtureSecurity({ start: '2024-01-01', close: closes });
    const snap2 = evaluateAt({ securities: [sec2], market: null }, fromEpochDay(sec2.dates[15]));
    const rs = (0.5 * 13 + 1) / (0.25 * 13);
    expect(metricValue(snap2, 1, 'rsi14')).toBeCloseTo(100 - 100 / (1 + rs), 10);
  });

  it('measures beta against the market: a stock moving twice the market has beta 2', () => {
    const marketPath = [100];
    for (let k = 1; k < 300; k++) marketPath.push(marketPath[k - 1] * (1 + 0.01 * Math.sin(k * 1.7)));
    const mkt = fixtureSecurity({
      permaticker: 1,
      start: '2023-01-02',
      close: marketPath,
    });
    const stockPath = [50];
    for (let k = 1; k < 300; k++) stockPath.push(stockPath[k - 1] * (1 + 2 * (marketPath[k] / marketPath[k - 1] - 1)));
    const stock = fixtureSecurity({
      permaticker: 2,
      start: '2023-01-02',
      close: stockPath,
    });
    const market = equalWeightMarket([mkt]);
    const snap = evaluateAt({ securities: [mkt, stock], market }, fromEpochDay(stock.dates[299]));
    expect(metricValue(snap, 2, 'beta_1y')).toBeCloseTo(2, 10);
    expect(metricValue(snap, 2, 'correlation_1y')).toBeCloseTo(1, 10);
    expect(metricValue(snap, 1, 'beta_1y')).toBeCloseTo(1, 10);
    expect(metricValue(snap, 2, 'beta_3y')).toBeNull(); // not enough history
    // Volatility of the stock is twice the market's.
    expect(metricValue(snap, 2, 'volatility_1y')! / metricValue(snap, 1, 'volatility_1y')!).toBeCloseTo(2, 10);
  });

  it('rescales levels into the shares of the evaluation day so a later split does not leak', () => {
    // Adjusted closes are 10 throughout; a 2:1 split happens on bar 260. Before it the stock traded at 20.
    const sec = fixtureSecurity({
      start: '2023-01-02',
      days: 300,
      close: () => 10,
      closeUnadj: (k, c) => (k < 260 ? 2 * c : c),
    });
    const before = evaluateAt({ securities: [sec], market: null }, fromEpochDay(sec.dates[255]));
    expect(metricValue(before, 1, 'price')).toBe(20);
    expect(metricValue(before, 1, 'sma200')).toBe(20);
    expect(metricValue(before, 1, 'price_to_sma200')).toBe(0);
    const after = evaluateAt({ securities: [sec], market: null }, fromEpochDay(sec.dates[299]));
    expect(metricValue(after, 1, 'sma200')).toBe(10);
  });

  it('lists a security only between its first price and, once delisted, its last', () => {
    const sec = fixtureSecurity({
      start: '2023-01-02',
      days: 100,
      close: () => 10,
      delisted: true,
    });
    const u = { securities: [sec], market: null };
    expect(evaluateAt(u, '2022-12-30').permatickers.length).toBe(0);
    expect(evaluateAt(u, fromEpochDay(sec.dates[99])).permatickers.length).toBe(1);
    expect(evaluateAt(u, fromEpochDay(sec.dates[99] + 1)).permatickers.length).toBe(0);
    expect(metricValue(evaluateAt(u, fromEpochDay(sec.dates[50])), 1, 'volatility_1y')).toBeNull();
  });

  it('computes every EMA and the RSI to the bit as their definitions, one at a time, do', () => {
    // The definitions, each smoother alone: the engine runs them side by side in one pass.
    const ema = (close: Float64Array, i: number, n: number) => {
      const start = Math.max(0, i - TECHNICAL_WARMUP_BARS + 1);
      if (i - start + 1 < n) return Number.NaN;
      let e = 0;
      for (let k = start; k < start + n; k++) e += close[k];
      e /= n;
      for (let k = start + n; k <= i; k++) e += (2 / (n + 1)) * (close[k] - e);
      return e;
    };
    const rsi = (close: Float64Array, i: number, n = 14) => {
      const start = Math.max(0, i - TECHNICAL_WARMUP_BARS + 1);
      if (i - start < n) return Number.NaN;
      let [gain, loss] = [0, 0];
      for (let k = start + 1; k <= start + n; k++) {
        const d = close[k] - close[k - 1];
        if (d > 0) gain += d;
        else loss -= d;
      }
      [gain, loss] = [gain / n, loss / n];
      for (let k = start + n + 1; k <= i; k++) {
        const d = close[k] - close[k - 1];
        gain = (gain * (n - 1) + (d > 0 ? d : 0)) / n;
        loss = (loss * (n - 1) + (d < 0 ? -d : 0)) / n;
      }
      if (loss === 0) return gain === 0 ? 50 : 100;
      return 100 - 100 / (1 + gain / loss);
    };
    const rand = mulberry32(11);
    // A random walk on a cent grid (unchanged closes too), 700 bars: every index, from too
    // short a window for any smoother to past the warm-up window.
    const close = new Float64Array(700);
    close[0] = 50;
    for (let k = 1; k < close.length; k++) close[k] = Math.max(0.01, Math.round((close[k - 1] + (rand() - 0.5) * 2) * 100) / 100);
    const p = preparePrices(
      Int32Array.from(close, (_, k) => 19_000 + k),
      close,
      close,
      new Float64Array(close.length).fill(Number.NaN),
      close,
    );
    const row = new Float64Array(N_METRICS);
    let known = 0;
    for (let i = 0; i < close.length; i++) {
      computeTechnicals(p, i, 19_000 + i, null, row);
      for (const n of EMA_WINDOWS) expect([i, n, row[metricIndex(`ema${n}`)]]).toEqual([i, n, ema(close, i, n)]);
      expect([i, row[metricIndex('rsi14')]]).toEqual([i, rsi(close, i)]);
      if (Number.isFinite(row[metricIndex('ema200')])) known++;
    }
    expect(known).toBeGreaterThan(400);
  });
});
