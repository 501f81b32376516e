import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../metrics/testing/synthetic-universe';
import { fromEpochDay } from '../../dates';
import { tradingCalendar } from './calendar';
import { runBacktest } from './simulate';
import { inputsOf, screenOf, weekdays, type TestSecurity } from './test-panel';

// Same inputs, same numbers to the last bit — also when the caller lists securities in another
// order. Every weighting, a cap, costs and delistings are in play.
const days = weekdays('2020-01-01', 260);
function universe(seed: number): TestSecurity[] {
  const rand = mulberry32(seed);
  return Array.from({ length: 30 }, (_, k) => {
    let v = 10 + rand() * 90;
    const listFrom = k % 7 === 0 ? Math.floor(rand() * 100) : 0;
    const delistAt = k % 5 === 0 ? 100 + Math.floor(rand() * 150) : days.length;
    const tri = Array.from(days, (_, i) => (i < listFrom || i >= delistAt ? null : (v *= 1 + (rand() - 0.5) * 0.06)));
    return {
      permaticker: 1000 + k * 13,
      ticker: `T${k}`,
      delisted: delistAt < days.length,
      tri,
      metrics: {
        ret_12m: tri.map(() => rand() - 0.5),
        market_cap: tri.map(() => 1e9 * (1 + rand() * 50)),
        pe_ttm: tri.map(() => (rand() < 0.1 ? null : rand() * 40)),
      },
    };
  });
}
const screen = screenOf(['pe_ttm < 30'], { ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }] });
const bits = (a: Float64Array) => Array.from(new Uint32Array(a.buffer.slice(0)));

describe.each(['equal', 'market_cap', 'inverse_volatility', 'rank'] as const)('determinism with %s weights', (weighting) => {
  const params = {
    rebalance: 'monthly' as const,
    topN: 8,
    weighting,
    maxWeight: 0.2,
    commissionBps: 5,
    slippageBps: 10,
    fixedCostPerTrade: 0.5,
  };
  const first = runBacktest(inputsOf(days, universe(7), screen, params));
  const second = runBacktest(inputsOf(days, universe(7), screen, params));
  const reversed = runBacktest(inputsOf(days, universe(7).reverse(), screen, params));

  it('gives bit-identical curves, trades and statistics', () => {
    expect(first.trades.length).toBeGreaterThan(20);
    expect(bits(second.equity)).toEqual(bits(first.equity));
    expect(bits(second.benchmark)).toEqual(bits(first.benchmark));
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it('does not depend on the order of the price panel or the securities', () => {
    expect(bits(reversed.equity)).toEqual(bits(first.equity));
    expect(JSON.stringify(reversed.trades)).toBe(JSON.stringify(first.trades));
  });

  it('gives the same numbers when the caller passes the exchange calendar it already knows', () => {
    const inputs = inputsOf(days, universe(7), screen, params);
    const known = runBacktest({ ...inputs, exchangeDays: tradingCalendar(inputs.prices.series, days[0], days[days.length - 1]) });
    expect(bits(known.equity)).toEqual(bits(first.equity));
    expect(JSON.stringify(known)).toBe(JSON.stringify(first));
  });

  it('gives the same curves and statistics when only those are wanted (the survivors comparison)', () => {
    const lean = runBacktest({ ...inputsOf(days, universe(7), screen, params), curvesOnly: true });
    expect(lean.trades).toEqual([]);
    expect(lean.rebalances.every((r) => r.holdings.length === 0)).toBe(true);
    expect(lean.rebalances.map((r) => r.passCount)).toEqual(first.rebalances.map((r) => r.passCount));
    expect(bits(lean.equity)).toEqual(bits(first.equity));
    expect(bits(lean.benchmark)).toEqual(bits(first.benchmark));
    expect(JSON.stringify(lean.statistics)).toBe(JSON.stringify(first.statistics));
    expect(lean.delistedHoldings).toBe(first.delistedHoldings);
  });

  it('gives the same numbers on a series list it has already run on, for any date range in between', () => {
    // The engine keeps its sorted, aligned panel per series list: one list, three runs over two ranges.
    const inputs = inputsOf(days, universe(7), screen, params);
    const later = { ...inputs.params, start: fromEpochDay(days[60]), end: fromEpochDay(days[220]) };
    const again = runBacktest(inputs);
    const shorter = runBacktest({ ...inputs, params: later });
    const third = runBacktest(inputs);
    const shorterAlone = runBacktest({ ...inputsOf(days, universe(7), screen, params), params: later });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(JSON.stringify(third)).toBe(JSON.stringify(first));
    expect(bits(shorter.equity)).toEqual(bits(shorterAlone.equity));
    expect(JSON.stringify(shorter)).toBe(JSON.stringify(shorterAlone));
    expect(shorter.dates[0]).toBe(later.start);
  });

  it('keeps every weight under the cap', () => {
    for (const r of first.rebalances) for (const h of r.holdings) expect(h.weight).toBeLessThanOrEqual(0.2 + 1e-15);
  });
});
