import { describe, expect, it } from 'vitest';
import { realismStatistics, type RealismStatistics } from './statistics';
import { createDemoUniverse, demoCompanies } from './universe';

// The demo universe must look like a real market. Targets from the real S&P 500
// daily panel 2013-2018 (real values in the comments).

function statsFor(seed: number): RealismStatistics {
  const universe = createDemoUniverse({ companies: 300, years: 6, seed });
  return realismStatistics([...demoCompanies(universe)], universe.plan.days);
}

describe.each([1, 2])('demo universe realism (300 companies x 6 years, seed %i)', (seed) => {
  const stats = statsFor(seed);

  it('has enough companies with full history to measure', () => {
    expect(stats.fullHistoryCompanies).toBeGreaterThan(100);
  });
  it('median annualised volatility 0.18-0.35 [0.23]', () => {
    expect(stats.medianAnnualVolatility).toBeGreaterThanOrEqual(0.18);
    expect(stats.medianAnnualVolatility).toBeLessThanOrEqual(0.35);
  });
  it('mean pairwise correlation 0.20-0.45 [0.28]', () => {
    expect(stats.meanPairwiseCorrelation).toBeGreaterThanOrEqual(0.2);
    expect(stats.meanPairwiseCorrelation).toBeLessThanOrEqual(0.45);
  });
  it('median excess kurtosis >= 3 [5.7]', () => {
    expect(stats.medianExcessKurtosis).toBeGreaterThanOrEqual(3);
  });
  it('median lag-1 autocorrelation of squared returns >= 0.04 [0.07]', () => {
    expect(stats.medianSquaredReturnAutocorrelation).toBeGreaterThanOrEqual(0.04);
  });
  it('equal-weighted index volatility 0.10-0.22 [0.13]', () => {
    expect(stats.equalWeightedIndexVolatility).toBeGreaterThanOrEqual(0.1);
    expect(stats.equalWeightedIndexVolatility).toBeLessThanOrEqual(0.22);
  });
  it('cross-sectional sd of yearly returns 0.15-0.40 [0.25]', () => {
    expect(stats.crossSectionalYearlyReturnSd).toBeGreaterThanOrEqual(0.15);
    expect(stats.crossSectionalYearlyReturnSd).toBeLessThanOrEqual(0.4);
  });
  it('30-60 % of companies pay dividends', () => {
    expect(stats.dividendPayerShare).toBeGreaterThanOrEqual(0.3);
    expect(stats.dividendPayerShare).toBeLessThanOrEqual(0.6);
  });
  it('3-6 % of companies delist a year', () => {
    expect(stats.delistingRatePerYear).toBeGreaterThanOrEqual(0.03);
    expect(stats.delistingRatePerYear).toBeLessThanOrEqual(0.06);
  });
  it('valuation multiples tie to prices: median P/E 12-30, P/S 0.5-6', () => {
    expect(stats.medianPriceToEarnings).toBeGreaterThanOrEqual(12);
    expect(stats.medianPriceToEarnings).toBeLessThanOrEqual(30);
    expect(stats.medianPriceToSales).toBeGreaterThanOrEqual(0.5);
    expect(stats.medianPriceToSales).toBeLessThanOrEqual(6);
  });
});

describe('realism statistics (the measuring stick itself)', () => {
  it('computes known values on hand-made series', async () => {
    const { excessKurtosis, autocorrelation, standardDeviation, median } = await import('./statistics');
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(standardDeviation([1, 2, 3, 4])).toBeCloseTo(Math.sqrt(5 / 3), 12);
    // A two-point distribution has excess kurtosis -2; alternating signs autocorrelate at -1.
    expect(excessKurtosis([1, -1, 1, -1])).toBeCloseTo(-2, 12);
    expect(autocorrelation([1, -1, 1, -1, 1, -1], 1)).toBeCloseTo(-5 / 6, 12);
  });
});
