import { describe, expect, it } from 'vitest';
import { computeStatistics, drawdownSeries } from './statistics';

// Every statistic against its textbook definition, on a fixed curve computed by hand.
// Portfolio returns: +10 %, −10 %, 0, +20 %; the benchmark's are exactly half of them.
// Days 0–3 are 1970-01-01..04, the last is 1974-01-01: exactly 4 years of 365.25 days.
const days = Int32Array.from([0, 1, 2, 3, 1461]);
const equity = Float64Array.from([100, 110, 99, 99, 118.8]);
const benchmark = Float64Array.from([100, 105, 99.75, 99.75, 109.725]);
const stats = (riskFreeRate = 0) =>
  computeStatistics({
    days,
    equity,
    benchmark,
    riskFreeRate,
    periodStarts: Int32Array.from([0, 2]),
    turnovers: Float64Array.from([0.5, 0.25]),
    totalCosts: 10,
  });

describe('statistics on a fixed series', () => {
  const s = stats();

  it('total return and CAGR', () => {
    expect(s.years).toBe(4);
    expect(s.totalReturn).toBeCloseTo(0.188, 12);
    expect(s.cagr).toBeCloseTo(Math.pow(1.188, 1 / 4) - 1, 12);
  });

  it('volatility, Sharpe and Sortino', () => {
    // mean 0.05; squared deviations 0.0025 + 0.0225 + 0.0025 + 0.0225 = 0.05; variance 0.05 / 3.
    const sd = Math.sqrt(0.05 / 3);
    expect(s.annualVolatility).toBeCloseTo(sd * Math.sqrt(252), 12);
    expect(s.sharpe).toBeCloseTo((0.05 / sd) * Math.sqrt(252), 10);
    // Downside deviation: √(0.1² / 4) = 0.05 over all four days.
    expect(s.sortino).toBeCloseTo((0.05 / 0.05) * Math.sqrt(252), 10);
  });

  it('Sharpe subtracts the daily equivalent of the risk-free rate', () => {
    const rf = Math.pow(1.05, 1 / 252) - 1;
    expect(stats(0.05).sharpe).toBeCloseTo(((0.05 - rf) / Math.sqrt(0.05 / 3)) * Math.sqrt(252), 10);
  });

  it('max drawdown with peak, trough and recovery dates, and Calmar', () => {
    expect(s.maxDrawdown).toBeCloseTo(-0.1, 12);
    expect([s.peakDate, s.troughDate, s.recoveryDate]).toEqual(['1970-01-02', '1970-01-03', '1974-01-01']);
    expect(s.calmar).toBeCloseTo(s.cagr / 0.1, 12);
    expect(Array.from(drawdownSeries(equity), (x) => Number(x.toFixed(12)))).toEqual([0, 0, -0.1, -0.1, 0]);
  });

  it('beta, alpha, tracking error and information ratio against the benchmark', () => {
    expect(s.beta).toBeCloseTo(2, 12);
    expect(s.alpha).toBeCloseTo(0, 12);
    // Active returns equal the benchmark's: 0.05, −0.05, 0, 0.1 (mean 0.025, variance 0.0125 / 3).
    const te = Math.sqrt(0.0125 / 3) * Math.sqrt(252);
    expect(s.trackingError).toBeCloseTo(te, 12);
    expect(s.informationRatio).toBeCloseTo((0.025 * 252) / te, 10);
    expect(s.benchmarkTotalReturn).toBeCloseTo(0.09725, 12);
  });

  it('months, years, hit rates, turnover and cost drag', () => {
    expect(
      s.monthlyReturns.map((r) => [
        r.year,
        r.months.filter((m) => m !== null).map((m) => Number(m.toFixed(12))),
        Number(r.year_return.toFixed(12)),
      ]),
    ).toEqual([
      [1970, [-0.01], -0.01],
      [1974, [0.2], 0.2],
    ]);
    expect(s.monthlyReturns[1].months[0]).not.toBeNull();
    expect([s.bestMonth, s.worstMonth, s.bestYear, s.worstYear].map((x) => Number(x?.toFixed(12)))).toEqual([0.2, -0.01, 0.2, -0.01]);
    // Period 1: −1 % (benchmark −0.25 %), period 2: +20 % (benchmark +10 %).
    expect([s.hitRate, s.hitRateVsBenchmark]).toEqual([0.5, 0.5]);
    expect(s.annualTurnover).toBeCloseTo(0.75 / 4, 12);
    expect(s.costDrag).toBeCloseTo(10 / ((100 + 110 + 99 + 99 + 118.8) / 5) / 4, 12);
  });
});
