import { describe, expect, it } from 'vitest';
import { runBacktest } from './simulate';
import { inputsOf, screenOf, weekdays } from './test-panel';

// A stock whose earnings are only known from its filing (day 7) cannot pass an earnings rule
// before: the snapshots fed to the engine are point in time, and the engine asks for each
// rebalance's own date. It soars before the filing; the backtest must not own it then.
const days = weekdays('2022-01-03', 15); // Fridays (signal days): indices 4, 9; 14 is the last day
const n = (v: number | null) => Array<number | null>(15).fill(v);
const lateFiler = {
  permaticker: 2,
  ticker: 'LATE',
  tri: [10, 12, 14, 16, 18, 20, 22, 24, 25, 26, 27, 28, 29, 30, 31],
  metrics: { pe_ttm: [...n(null).slice(0, 7), ...n(8).slice(7)] },
};
const steady = { permaticker: 1, ticker: 'STDY', tri: n(50).map((_, i) => 50 + i * 0.1), metrics: { pe_ttm: n(12) } };

describe('point in time through the snapshots', () => {
  const asked: string[] = [];
  const inputs = inputsOf(days, [steady, lateFiler], screenOf(['pe_ttm < 15']), { rebalance: 'weekly', topN: 'all' });
  const snapshotAt = inputs.snapshotAt;
  const result = runBacktest({ ...inputs, snapshotAt: (date, day) => (asked.push(date), snapshotAt(date, day)) });

  it('evaluates the screen on each signal date only', () => {
    expect(asked).toEqual(['2022-01-07', '2022-01-14']);
  });

  it('does not pick the stock before its data is known', () => {
    expect(result.rebalances.map((r) => [r.signalDate, r.holdings.map((h) => h.ticker)])).toEqual([
      ['2022-01-07', ['STDY']],
      ['2022-01-14', ['LATE', 'STDY']],
    ]);
    expect(result.trades.filter((t) => t.ticker === 'LATE').map((t) => t.date)).toEqual(['2022-01-17']);
  });

  it('shows the rule values the screen saw', () => {
    expect(result.rebalances[1].holdings.find((h) => h.ticker === 'LATE')?.values).toEqual({ pe_ttm: 8 });
  });
});
