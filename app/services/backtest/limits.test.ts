import { describe, expect, it } from 'vitest';
import { BacktestParamsSchema } from './engine';
import {
  estimatedRebalanceDates,
  estimatedResultBytes,
  limitProblem,
  MAX_COMPUTED_SNAPSHOT_ROWS,
  MAX_HOLDING_ROWS,
  MAX_STORED_RESULT_BYTES,
} from './limits';

const params = (p: Record<string, unknown>) => BacktestParamsSchema.parse({ start: '2007-01-01', end: '2026-06-30', ...p });

describe('backtest limits', () => {
  it('counts rebalance dates as period ends', () => {
    expect(estimatedRebalanceDates(params({ rebalance: 'monthly' }))).toBe(12 * 19 + 5);
    expect(estimatedRebalanceDates({ start: '2024-01-01', end: '2024-01-31', rebalance: 'weekly' })).toBe(4);
    expect(estimatedRebalanceDates({ start: '2024-01-01', end: '2024-01-05', rebalance: 'daily' })).toBe(4);
  });

  it('accepts a daily top-500 run over 19 years of 1,500 companies', () => {
    expect(limitProblem(params({ rebalance: 'daily', topN: 500, weighting: 'inverse_volatility' }), 1500)).toBeNull();
  });

  it('accepts the daily top-500 run with the default four metrics under the stored-result bound', () => {
    const p = params({ rebalance: 'daily', topN: 500, weighting: 'inverse_volatility' });
    expect(limitProblem(p, 1500, 4)).toBeNull();
    expect(estimatedResultBytes(estimatedRebalanceDates(p) * 500, 4)).toBeLessThan(MAX_STORED_RESULT_BYTES);
  });

  it('refuses a result estimated over the stored-result bound, naming the limit', () => {
    const problem = limitProblem(params({ rebalance: 'daily', topN: 500 }), 1500, 12);
    expect(problem).toMatch(
      /^This backtest's result would take about \d[\d,]* MB to store; the limit is 128 MB per stored backtest result\./,
    );
    // Fewer metrics or names bring it under.
    expect(limitProblem(params({ rebalance: 'daily', topN: 250 }), 1500, 12)).toBeNull();
  });

  it('refuses more positions than a result stores, naming the limit', () => {
    const problem = limitProblem(params({ rebalance: 'daily', topN: 'all' }), 1500);
    expect(problem).toContain(`the limit is ${MAX_HOLDING_ROWS.toLocaleString('en-US')} positions per backtest`);
  });

  it('refuses more company-days than a run computes, naming the limit', () => {
    const problem = limitProblem(params({ start: '2001-01-01', rebalance: 'daily', topN: 50 }), 6000);
    expect(problem).toContain(`the limit is ${MAX_COMPUTED_SNAPSHOT_ROWS.toLocaleString('en-US')} company-days per backtest`);
    expect(limitProblem(params({ start: '2001-01-01', rebalance: 'monthly', topN: 50 }), 6000)).toBeNull();
  });
});
