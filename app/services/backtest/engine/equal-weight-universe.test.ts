import { describe, expect, it } from 'vitest';
import { runBacktest } from './simulate';
import { inputsOf, screenOf, weekdays } from './test-panel';

// Holding every passer of a rule-less screen with equal weights and no costs is the equal-weighted
// universe: a stock listing later and one delisting midway included.
const days = weekdays('2021-03-01', 15); // Fridays (signal days): indices 4, 9; 14 is the last day
const securities = [
  { permaticker: 1, ticker: 'AAA', tri: [10, 11, 12, 11, 13, 14, 13, 12, 13, 15, 16, 15, 17, 18, 19] },
  { permaticker: 2, ticker: 'BBB', tri: [20, 19, 21, 22, 20, 21, 23, 22, 24, 25, 23, 24, 26, 25, 27] },
  { permaticker: 3, ticker: 'NEW', tri: [null, null, null, 5, 6, 6.5, 7, 6, 7, 8, 9, 8, 9, 10, 11] },
  { permaticker: 4, ticker: 'GONE', delisted: true, tri: [30, 31, 29, 28, 27, 26, 25, 24, null, null, null, null, null, null, null] },
];

describe('N = all, equal weight, zero cost', () => {
  const result = runBacktest(
    inputsOf(days, securities, screenOf([]), { rebalance: 'weekly', topN: 'all', benchmark: 'equal_weight_universe' }),
  );

  it('equals the equal-weighted universe benchmark bit for bit', () => {
    expect(result.rebalances.map((r) => r.holdings.map((h) => h.ticker))).toEqual([
      ['AAA', 'BBB', 'GONE', 'NEW'],
      ['AAA', 'BBB', 'NEW'],
    ]);
    expect(Array.from(result.equity)).toEqual(Array.from(result.benchmark));
  });

  it('matches a hand computation of the first period', () => {
    // Cash until the first trade, at day 5's close, a quarter each; day 6: AAA 13/14, BBB 23/21,
    // NEW 7/6.5, GONE 25/26.
    for (let t = 0; t <= 5; t++) expect(result.equity[t]).toBe(1000);
    const quarter = 1000 / 4;
    expect(result.equity[6]).toBeCloseTo(quarter * (13 / 14) + quarter * (23 / 21) + quarter * (7 / 6.5) + quarter * (25 / 26), 9);
  });
});

describe('the equal-weighted benchmark kept between runs', () => {
  const params = { rebalance: 'weekly', topN: 1, benchmark: 'equal_weight_universe' } as const;
  const cache = () => {
    let kept: Float64Array | undefined;
    let sets = 0;
    return {
      get: () => kept,
      set: (curve: Float64Array) => {
        kept = curve;
        sets++;
      },
      get sets() {
        return sets;
      },
    };
  };

  it('is computed once, then reused by a run with other rules, which gives the result of a run without it', () => {
    const curves = cache();
    // Every security (the benchmark itself), then one pick of a screen with a rule.
    const first = runBacktest({ ...inputsOf(days, securities, screenOf([]), { ...params, topN: 'all' }), equalWeightCurve: curves });
    expect(Array.from(first.equity)).toEqual(Array.from(first.benchmark));
    expect(curves.sets).toBe(1);
    const rules = screenOf(['price > 12'], { ranking: [{ metric: 'price', direction: 'desc', weight: 1 }] });
    const reused = runBacktest({ ...inputsOf(days, securities, rules, params), equalWeightCurve: curves });
    expect(curves.sets).toBe(1);
    const fresh = runBacktest(inputsOf(days, securities, rules, params));
    expect(Array.from(reused.benchmark)).toEqual(Array.from(first.benchmark));
    expect(Array.from(reused.benchmark)).toEqual(Array.from(fresh.benchmark));
    expect(Array.from(reused.equity)).toEqual(Array.from(fresh.equity));
    expect(reused.statistics).toEqual(fresh.statistics);
    expect(Array.from(fresh.equity)).not.toEqual(Array.from(first.equity));
  });

  it('is ignored when its length does not match the run', () => {
    const wrong = { get: () => new Float64Array(3).fill(1), set: () => {} };
    const run = runBacktest({ ...inputsOf(days, securities, screenOf([]), params), equalWeightCurve: wrong });
    expect(Array.from(run.benchmark)).toEqual(Array.from(runBacktest(inputsOf(days, securities, screenOf([]), params)).benchmark));
  });
});
