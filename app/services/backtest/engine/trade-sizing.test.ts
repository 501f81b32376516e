import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../metrics/testing/synthetic-universe';
import { investableAmount } from './trade-sizing';

// The invested amount leaves exactly enough for the costs of reaching it.
const g = (n: number, current: Float64Array, weights: Float64Array, rate: number) =>
  n + rate * current.reduce((s, c, i) => s + Math.abs(weights[i] * n - c), 0);

describe('investable amount after costs', () => {
  it('is the whole value without costs, bit for bit', () => {
    expect(investableAmount(1234.5678, Float64Array.from([600, 634.5678]), Float64Array.from([0.5, 0.5]), 0, 0)).toBe(1234.5678);
  });

  it('from cash: (value − fixed) / (1 + rate)', () => {
    expect(investableAmount(1000, Float64Array.from([0]), Float64Array.from([1]), 0.0025, 1)).toBeCloseTo(999 / 1.0025, 12);
  });

  it('solves N + rate × Σ|wN − c| = value − fixed for mixed buys and sells', () => {
    const rand = mulberry32(3);
    for (let k = 0; k < 200; k++) {
      const n = 1 + Math.floor(rand() * 8);
      const current = Float64Array.from({ length: n }, () => (rand() < 0.3 ? 0 : rand() * 100));
      const raw = Float64Array.from({ length: n }, () => (rand() < 0.3 ? 0 : rand()));
      const sum = raw.reduce((s, x) => s + x, 0) || 1;
      const weights = raw.map((x) => x / sum);
      const cash = rand() * 50;
      const value = cash + current.reduce((s, x) => s + x, 0);
      const rate = rand() * 0.02;
      const fixed = rand() * 2;
      const invested = investableAmount(value, current, weights, rate, fixed);
      if (invested > 0) expect(g(invested, current, weights, rate)).toBeCloseTo(value - fixed, 9);
      else expect(g(0, current, weights, rate)).toBeGreaterThanOrEqual(value - fixed - 1e-9);
    }
  });
});
