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

  it('takes volatility and beta over the days of each window that have a return, to the bit, n/a under 80 % of them', () => {
    // Each window as its definition sums it: the engine must give the same doubles.
    const volatility = (ret: Float64Array, i: number, n: number) => {
      if (i < n) return Number.NaN;
      let sum = 0;
      let sq = 0;
      let count = 0;
      for (let k = i - n + 1; k <= i; k++) {
        if (!Number.isFinite(ret[k])) continue;
        sum += ret[k];
        sq += ret[k] * ret[k];
        count++;
      }
      if (count < Math.ceil(n * 0.8) || count < 2) return Number.NaN;
      const mean = sum / count;
      return Math.sqrt(Math.max(0, (sq - count * mean * mean) / (count - 1))) * Math.sqrt(252);
    };
    const beta = (ret: Float64Array, market: Float64Array, i: number, n: number): [number, number] => {
      if (i < n) return [Number.NaN, Number.NaN];
      let sx = 0;
      let sy = 0;
      let sxx = 0;
      let syy = 0;
      let sxy = 0;
      let count = 0;
      for (let k = i - n + 1; k <= i; k++) {
        const r = ret[k];
        const m = market[k];
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
      return [vm > 0 ? cov / vm : Number.NaN, vm > 0 && vr > 0 ? cov / Math.sqrt(vm * vr) : Number.NaN];
    };
    const rand = mulberry32(23);
    const n = 1_100;
    const day0 = 19_000;
    const close = new Float64Array(n);
    const tri = new Float64Array(n);
    close[0] = tri[0] = 40;
    for (let k = 1; k < n; k++) {
      close[k] = Math.max(0.01, close[k - 1] * (1 + (rand() - 0.5) * 0.06));
      tri[k] = tri[k - 1] * (close[k] / close[k - 1]) * (rand() < 0.02 ? 1.01 : 1);
    }
    // Runs of unknown index (returns not finite there and the day after) and market holidays,
    // dense enough around some days to drop windows under the 80 % they need.
    for (let k = 300; k < 330; k++) tri[k] = Number.NaN;
    for (let k = 900; k < 1_020; k += 2) tri[k] = Number.NaN;
    const marketRet = new Float64Array(n).map(() => (rand() < 0.05 ? Number.NaN : (rand() - 0.5) * 0.03));
    for (let k = 640; k < 700; k++) marketRet[k] = Number.NaN;
    const p = preparePrices(
      Int32Array.from(close, (_, k) => day0 + k),
      close,
      close,
      tri,
      close,
    );
    const row = new Float64Array(N_METRICS);
    const counts = { vol: 0, beta1: 0, beta3: 0, nanVol: 0, nanBeta: 0 };
    for (let i = 0; i < n; i++) {
      computeTechnicals(p, i, day0 + i, { day0, ret: marketRet }, row);
      const got = ['volatility_1m', 'volatility_3m', 'volatility_1y', 'beta_1y', 'correlation_1y', 'beta_3y'].map(
        (id) => row[metricIndex(id)],
      );
      const [b1, c1] = beta(p.ret, marketRet, i, 252);
      const want = [
        volatility(p.ret, i, 21),
        volatility(p.ret, i, 63),
        volatility(p.ret, i, 252),
        b1,
        c1,
        beta(p.ret, marketRet, i, 756)[0],
      ];
      // Object.is: the same double, NaN where NaN.
      expect([i, got.every((v, k) => Object.is(v, want[k]))]).toEqual([i, true]);
      if (Number.isFinite(want[2])) counts.vol++;
      else if (i >= 252) counts.nanVol++;
      if (Number.isFinite(want[3])) counts.beta1++;
      else if (i >= 252) counts.nanBeta++;
      if (Number.isFinite(want[5])) counts.beta3++;
    }
    // Every case met: known windows, windows too short, and windows with too few days.
    expect(counts.vol).toBeGreaterThan(500);
    expect(counts.beta1).toBeGreaterThan(300);
    expect(counts.beta3).toBeGreaterThan(100);
    expect(counts.nanVol).toBeGreaterThan(0);
    expect(counts.nanBeta).toBeGreaterThan(0);
  });
});
