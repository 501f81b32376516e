import { describe, expect, it } from 'vitest';
import { runBacktest } from './simulate';
import { inputsOf, screenOf, weekdays } from './test-panel';

// One stock, bought at the first trade and held: the portfolio earns exactly its total return
// (dividends reinvested through the total-return index, not the close).
const days = weekdays('2020-01-06', 8);
const tri = [100, 101, 103, 102.5, 105, 104, 108, 110];
// A 2.00 dividend goes ex on day 3: the close drops, the total-return index does not.
const close = [100, 101, 103, 100.5, 103, 102, 106, 108];

describe('buy and hold of one stock', () => {
  const result = runBacktest(
    inputsOf(days, [{ permaticker: 7, ticker: 'ONE', tri, close }], screenOf([]), { rebalance: 'daily', topN: 1, benchmark: 7 }),
  );

  it('holds cash on the signal day and buys at the next close', () => {
    // Every day but the last is a signal day; holding the one stock needs no trade after the first.
    expect(result.rebalances).toHaveLength(7);
    expect([result.rebalances[0].signalDate, result.rebalances[0].tradeDate]).toEqual(['2020-01-06', '2020-01-07']);
    expect(result.trades).toEqual([
      {
        date: '2020-01-07',
        permaticker: 7,
        ticker: 'ONE',
        side: 'buy',
        reason: 'rebalance',
        value: 1000,
        price: 101,
        shares: 1000 / 101,
        cost: 0,
      },
    ]);
    expect(result.equity[0]).toBe(1000);
    expect(result.equity[1]).toBe(1000);
  });

  it('earns the total return from the trade day, day by day', () => {
    for (let t = 1; t < days.length; t++) expect(result.equity[t]).toBeCloseTo((1000 * tri[t]) / 101, 9);
    expect(result.statistics.totalReturn).toBeCloseTo(110 / 101 - 1, 12);
  });

  it('has the stock itself as benchmark from the first day', () => {
    expect(Array.from(result.benchmark)).toEqual(tri.map((v) => (1000 * v) / 100));
  });
});
