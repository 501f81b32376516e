import { describe, expect, it } from 'vitest';
import { runBacktest } from './simulate';
import { inputsOf, screenOf, weekdays } from './test-panel';

// Costs reduce the portfolio by exactly traded value × (commission + slippage) + fixed cost per
// trade, and nothing else.
const days = weekdays('2023-05-01', 12); // Fridays (signal days): indices 4, 9
const a = {
  permaticker: 1,
  ticker: 'AAA',
  tri: [10, 10, 11, 12, 12, 13, 12, 14, 15, 14, 16, 17],
  metrics: { ret_12m: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3] },
};
const b = {
  permaticker: 2,
  ticker: 'BBB',
  tri: [20, 21, 20, 19, 21, 22, 24, 23, 22, 24, 25, 26],
  metrics: { ret_12m: [2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 2, 2] },
};
const rate = (10 + 15) / 10_000;
const params = { rebalance: 'weekly' as const, topN: 1, commissionBps: 10, slippageBps: 15, fixedCostPerTrade: 1 };
const screen = screenOf([], { ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }] });

describe('trading costs', () => {
  const free = runBacktest(inputsOf(days, [a, b], screen, { ...params, commissionBps: 0, slippageBps: 0, fixedCostPerTrade: 0 }));
  const paid = runBacktest(inputsOf(days, [a, b], screen, params));

  it('charge the first purchase exactly: invested N with N + N × rate + fixed = capital', () => {
    const n = (1000 - 1) / (1 + rate);
    const first = paid.trades[0];
    expect(first).toMatchObject({ date: '2023-05-08', ticker: 'BBB', side: 'buy' });
    expect(first.value).toBeCloseTo(n, 9);
    expect(first.cost).toBeCloseTo(n * rate + 1, 12);
    for (let t = 0; t < 5; t++) expect(paid.equity[t]).toBe(1000);
    expect(paid.equity[5]).toBeCloseTo(1000 - first.cost, 9);
    // Until the next trade the costly run is the free one scaled by what was left after costs.
    for (let t = 5; t <= 9; t++) expect(paid.equity[t] / free.equity[t]).toBeCloseTo((1000 - first.cost) / 1000, 12);
  });

  it('charge every rebalance traded value × rate + fixed × trades, taken from the portfolio', () => {
    expect(paid.rebalances.map((r) => r.holdings.map((h) => h.ticker))).toEqual([['BBB'], ['AAA']]);
    for (const r of paid.rebalances) {
      const trades = paid.trades.filter((t) => t.date === r.tradeDate && t.reason === 'rebalance');
      const traded = trades.reduce((s, t) => s + t.value, 0);
      expect(r.tradedValue).toBeCloseTo(traded, 9);
      expect(r.cost).toBeCloseTo(traded * rate + trades.length, 9);
      const t = paid.dates.indexOf(r.tradeDate);
      expect(paid.equity[t]).toBeCloseTo(r.valueBefore - r.cost, 9);
    }
    expect(paid.statistics.totalCosts).toBeCloseTo(
      paid.rebalances.reduce((s, r) => s + r.cost, 0),
      12,
    );
    expect(free.statistics.totalCosts).toBe(0);
  });

  it('the switch from BBB to AAA sells all of BBB and buys AAA with what is left', () => {
    const r = paid.rebalances[1];
    const [sell, buy] = paid.trades.filter((t) => t.date === r.tradeDate);
    expect([sell.ticker, sell.side, buy.ticker, buy.side]).toEqual(['BBB', 'sell', 'AAA', 'buy']);
    expect(sell.value).toBeCloseTo(r.valueBefore, 9);
    expect(buy.value + buy.value * rate + sell.value * rate + 2).toBeCloseTo(r.valueBefore, 9);
  });
});
