import { describe, expect, it } from 'vitest';
import { capWeights, targetWeights, trailingVolatility } from './weights';

// The four weighting schemes and the cap, on three holdings best first.
const inputs = { marketCap: Float64Array.from([100, 300, Number.NaN]), volatility: Float64Array.from([0.01, 0.02, Number.NaN]) };
const round = (w: Float64Array) => Array.from(w, (x) => Number(x.toFixed(12)));

describe('target weights', () => {
  it('equal, rank, market cap and inverse volatility', () => {
    expect(round(targetWeights('equal', 3, inputs))).toEqual([0.333333333333, 0.333333333333, 0.333333333333]);
    expect(round(targetWeights('rank', 3, inputs))).toEqual([0.5, 0.333333333333, 0.166666666667]);
    // An unknown cap weighs nothing.
    expect(round(targetWeights('market_cap', 3, inputs))).toEqual([0.25, 0.75, 0]);
    // 1/0.01 = 100, 1/0.02 = 50, unknown gets their mean 75: 100/225, 50/225, 75/225.
    expect(round(targetWeights('inverse_volatility', 3, inputs))).toEqual([0.444444444444, 0.222222222222, 0.333333333333]);
  });

  it('caps a position and hands the excess to the others in proportion', () => {
    expect(round(capWeights(Float64Array.from([0.7, 0.2, 0.1]), 0.5))).toEqual([0.5, 0.333333333333, 0.166666666667]);
    // Redistribution can push another one over the cap: repeated until none is.
    expect(round(capWeights(Float64Array.from([0.6, 0.3, 0.1]), 0.4))).toEqual([0.4, 0.4, 0.2]);
    // Too few positions for the cap: the rest stays cash.
    expect(round(capWeights(Float64Array.from([0.5, 0.5]), 0.3))).toEqual([0.3, 0.3]);
  });

  it('trailing volatility is the sample standard deviation of the last daily returns', () => {
    const days = Int32Array.from([10, 11, 12, 13, 14]);
    const tri = Float64Array.from([100, 110, 99, 99, 118.8]);
    expect(trailingVolatility(days, tri, days, 4, 60)).toBeCloseTo(Math.sqrt(0.05 / 3), 12);
    expect(trailingVolatility(days, tri, days, 4, 2)).toBeCloseTo(Math.sqrt(0.02), 12);
  });

  it('counts exchange days: a day without a bar keeps the last close (a return of 0)', () => {
    const exchange = Int32Array.from([10, 11, 12, 13, 14, 15]);
    // No bar on day 12: its close stays 110, and the window of 3 exchange days ends at day 15.
    const days = Int32Array.from([10, 11, 13, 14, 15]);
    const tri = Float64Array.from([100, 110, 99, 99, 118.8]);
    // Returns over days 13, 14, 15: −0.1, 0, +0.2.
    const r = [-0.1, 0, 0.2];
    const m = (r[0] + r[1] + r[2]) / 3;
    const sd = Math.sqrt(r.reduce((s, x) => s + (x - m) ** 2, 0) / 2);
    expect(trailingVolatility(days, tri, exchange, 5, 3)).toBeCloseTo(sd, 12);
    // Over 4 exchange days the gap day adds its return of 0 (day 12) to the window.
    const r4 = [0, -0.1, 0, 0.2];
    const m4 = r4.reduce((s, x) => s + x, 0) / 4;
    const sd4 = Math.sqrt(r4.reduce((s, x) => s + (x - m4) ** 2, 0) / 3);
    expect(trailingVolatility(days, tri, exchange, 5, 4)).toBeCloseTo(sd4, 12);
  });
});
