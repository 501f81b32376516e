import { describe, expect, it } from 'vitest';
import { runBacktest } from './simulate';
import { inputsOf, screenOf, weekdays } from './test-panel';

// The screen sees the signal day's close; the trade happens at the next close. A jump on the
// signal day (what made the stock pass) and on the trade day itself are not earned.
const days = weekdays('2024-02-05', 12); // Fridays (signal days): indices 4, 9
const jumper = {
  permaticker: 5,
  ticker: 'JUMP',
  tri: [10, 10, 10, 10, 10, 10, 10, 10, 10, 15, 16.5, 17],
  metrics: { price_change_1d: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5, 0.1, 0.03] },
};

describe('trades at the next close', () => {
  const result = runBacktest(
    inputsOf(days, [jumper], screenOf(['price_change_1d > 0.2']), { rebalance: 'weekly', topN: 'all', benchmark: 5 }),
  );

  it('holds nothing until the signal, and buys the day after it', () => {
    expect(result.rebalances.map((r) => [r.signalDate, r.tradeDate, r.holdings.length])).toEqual([
      ['2024-02-09', '2024-02-12', 0],
      ['2024-02-16', '2024-02-19', 1],
    ]);
    expect(result.trades.map((t) => [t.date, t.price])).toEqual([['2024-02-19', 16.5]]);
  });

  it('does not capture the signal-day or trade-day jump', () => {
    for (let t = 0; t <= 10; t++) expect(result.equity[t]).toBe(1000);
    expect(result.equity[11]).toBeCloseTo((1000 * 17) / 16.5, 9);
    expect(result.statistics.totalReturn).toBeCloseTo(17 / 16.5 - 1, 12);
  });
});
