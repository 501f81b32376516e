import { describe, expect, it } from 'vitest';
import { runBacktest } from './simulate';
import { inputsOf, screenOf, weekdays } from './test-panel';
import { BacktestCancelledError, BacktestInputError } from './types';

// What a job needs from the engine: progress per signal date, a clean cancel, and typed errors
// for inputs that cannot give a backtest.
const days = weekdays('2020-01-06', 15); // Fridays (signal days): indices 4, 9; 14 is the last day
const inputs = inputsOf(days, [{ permaticker: 1, ticker: 'AAA', tri: Array.from(days, (_, i) => 10 + i) }], screenOf([]), {
  rebalance: 'weekly',
});

describe('progress, cancel and input errors', () => {
  it('reports progress once per signal date', () => {
    const seen: [number, number][] = [];
    runBacktest({ ...inputs, onProgress: (done, total) => seen.push([done, total]) });
    expect(seen).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it('stops with BacktestCancelledError when asked', () => {
    let calls = 0;
    expect(() => runBacktest({ ...inputs, isCancelled: () => ++calls > 1 })).toThrow(BacktestCancelledError);
    expect(calls).toBe(2);
  });

  it('refuses a benchmark without prices, duplicate series and an empty range', () => {
    expect(() => runBacktest({ ...inputs, params: { ...inputs.params, benchmark: 999 } })).toThrow(
      new BacktestInputError('The benchmark 999 has no prices'),
    );
    expect(() => runBacktest({ ...inputs, prices: { series: [...inputs.prices.series, ...inputs.prices.series] } })).toThrow(
      /two series for permaticker 1/,
    );
    expect(() => runBacktest({ ...inputs, params: { ...inputs.params, start: '2030-01-01', end: '2030-02-01' } })).toThrow(
      /No trading days/,
    );
  });
});
