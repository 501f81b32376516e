import { describe, expect, it } from 'vitest';
import { BacktestParamsSchema } from './params';

// Hostile or careless values are refused with a message a person can act on.
const base = { start: '2015-01-02', end: '2018-12-31' };
const messages = (input: unknown) => {
  const r = BacktestParamsSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('backtest parameters', () => {
  it('fills the defaults', () => {
    expect(BacktestParamsSchema.parse(base)).toEqual({
      ...base,
      rebalance: 'monthly',
      topN: 50,
      weighting: 'equal',
      maxWeight: null,
      commissionBps: 0,
      slippageBps: 0,
      fixedCostPerTrade: 0,
      riskFreeRate: 0,
      benchmark: 'equal_weight_universe',
      initialCapital: 10_000,
    });
  });

  it.each([
    [{ topN: 0 }, 'topN: Top N is at least 1'],
    [{ topN: 501 }, 'topN: Top N is at most 500'],
    [{ topN: 2.5 }, 'topN: Top N is a whole number'],
    [{ topN: 'many' }, 'topN: Top N is a whole number from 1 to 500, or "all"'],
    [{ rebalance: 'hourly' }, 'rebalance: Rebalance is one of daily, weekly, monthly, quarterly, semiannual, annual'],
    [{ weighting: 'vibes' }, 'weighting: Weighting is one of equal, market_cap, inverse_volatility, rank'],
    [{ commissionBps: -1 }, 'commissionBps: Commission cannot be negative'],
    [{ slippageBps: Number.POSITIVE_INFINITY }, 'slippageBps: Slippage must be a finite number'],
    [{ slippageBps: 5000 }, 'slippageBps: Slippage is at most 1000 bps (10 %)'],
    [{ commissionBps: '5' }, 'commissionBps: Commission is a number of basis points'],
    [{ fixedCostPerTrade: -3 }, 'fixedCostPerTrade: The fixed cost per trade cannot be negative'],
    [{ maxWeight: 0 }, 'maxWeight: The maximum weight is above 0'],
    [{ maxWeight: 1.5 }, 'maxWeight: The maximum weight is at most 1 (100 %)'],
    [{ riskFreeRate: 2 }, 'riskFreeRate: The risk-free rate is at most 50 % (write 0.02 for 2 %)'],
    [{ riskFreeRate: Number.NaN }, 'riskFreeRate: The risk-free rate is a number'],
    [{ benchmark: -4 }, 'benchmark: A benchmark permaticker is positive'],
    [{ benchmark: 'SPY' }, 'benchmark: The benchmark is a permaticker or "equal_weight_universe"'],
    [{ initialCapital: 0 }, 'initialCapital: The initial capital is above 0'],
    [{ start: '2015-02-30' }, 'start: "2015-02-30" is not a date (YYYY-MM-DD)'],
    [{ end: '2015-01-01' }, 'end: The end date is after the start date'],
    [{ end: "'; DROP TABLE backtests;--" }, `end: "'; DROP TABLE backte" is not a date (YYYY-MM-DD)`],
  ])('%j is refused', (patch, message) => {
    expect(messages({ ...base, ...patch })).toContain(message);
  });

  it('refuses unknown keys (a typo must not silently run another backtest)', () => {
    expect(messages({ ...base, top_n: 10 })).toEqual([": Unrecognized key(s) in object: 'top_n'"]);
  });

  it('accepts "all" passers and a permaticker benchmark', () => {
    const p = BacktestParamsSchema.parse({ ...base, topN: 'all', benchmark: 199059, maxWeight: 0.1 });
    expect([p.topN, p.benchmark, p.maxWeight]).toEqual(['all', 199059, 0.1]);
  });
});
