import { describe, expect, it } from 'vitest';
import { runBacktest } from './simulate';
import { inputsOf, screenOf, weekdays } from './test-panel';

// A holding that is delisted becomes cash at its last value on its last day, stays cash until the
// next rebalance, and is not picked again.
const days = weekdays('2019-06-03', 12); // Fridays (signal days): indices 4, 9
const gone = { permaticker: 9, ticker: 'BUST', delisted: true, tri: [40, 40, 36, 30, 20, 20, 18, 15, null, null, null, null] };
const stays = { permaticker: 3, ticker: 'LIVE', tri: [10, 10, 11, 12, 12, 13, 14, 15, 16, 15, 16, 17] };

describe('a delisted holding', () => {
  const result = runBacktest(inputsOf(days, [gone, stays], screenOf([]), { rebalance: 'weekly', topN: 'all' }));

  it('turns into cash at its last price on its last day', () => {
    const sale = result.trades.find((t) => t.reason === 'delisted');
    expect(sale).toEqual({
      date: '2019-06-12',
      permaticker: 9,
      ticker: 'BUST',
      side: 'sell',
      reason: 'delisted',
      value: 500 * (15 / 20),
      price: 15,
      shares: 25,
      cost: 0,
    });
    expect(result.delistedHoldings).toBe(1);
  });

  it('keeps that cash flat until the next trade', () => {
    // 500 in LIVE from day 5 (at 13), 375 of cash from day 7 to the next trade (day 10).
    for (let t = 7; t <= 9; t++) expect(result.equity[t]).toBeCloseTo(375 + (500 * (stays.tri[t] as number)) / 13, 9);
  });

  it('is gone from later rebalances', () => {
    expect(result.rebalances.map((r) => r.holdings.map((h) => h.ticker))).toEqual([['BUST', 'LIVE'], ['LIVE']]);
  });
});
