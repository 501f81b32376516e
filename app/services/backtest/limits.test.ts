import { describe, expect, it } from 'vitest';
import { BacktestParamsSchema } from './engine';
import { estimatedRebalanceDates, limitProblem, MAX_COMPUTED_SNAPSHOT_ROWS, MAX_HOLDING_ROWS } from './limits';

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
