import { describe, expect, it } from 'vitest';
import { fromEpochDay } from '../dates';
import { mulberry32 } from '../metrics/testing/synthetic-universe';
import { runBacktestPair } from './compute.server';
import { runBacktest, signalIndices } from './engine';
import { inputsOf, panelOf, paramsOf, screenOf, weekdays, type TestSecurity } from './engine/test-panel';
import type { MarketInputs } from './market-inputs.server';

// The survivors-only comparison of a backtest is the same backtest run on a universe from which
// every company not listed at the end was removed — its prices, its descriptive fields and its
// rows in every snapshot. The app runs it on the shared snapshots instead (a company without
// descriptive fields is never in a universe) and keeps only its curve and statistics: the
// numbers must be those of the removed-universe run, to the last bit.

const days = weekdays('2019-01-01', 400);
const last = days.length - 1;

function universe(): TestSecurity[] {
  const rand = mulberry32(11);
  return Array.from({ length: 40 }, (_, k) => {
    let v = 20 + rand() * 80;
    const listFrom = k % 6 === 0 ? Math.floor(rand() * 150) : 0;
    // Every fourth company is delisted during the run, one more on its last day, and every ninth
    // stops trading before its end without being marked delisted: none of them survives.
    const endAt = k % 4 === 0 ? 120 + Math.floor(rand() * 250) : k % 9 === 0 ? last - 30 : days.length;
    const tri = Array.from(days, (_, i) => (i < listFrom || i >= endAt ? null : (v *= 1 + (rand() - 0.48) * 0.05)));
    return {
      permaticker: 500 + k * 7,
      ticker: `S${k}`,
      delisted: k % 4 === 0 || k === 15,
      tri,
      metrics: {
        ret_12m: tri.map((x) => (x === null ? null : rand() - 0.4)),
        market_cap: tri.map(() => 1e9 * (1 + rand() * 20)),
      },
    };
  });
}

function marketInputs(securities: TestSecurity[], rebalance: 'monthly' | 'weekly'): MarketInputs {
  const panel = panelOf(days, securities);
  const signalDays = Int32Array.from(signalIndices(days, rebalance), (i) => days[i]);
  return {
    prices: panel.prices,
    exchangeDays: days,
    securities: panel.securities,
    snapshotId: 'survivors-test',
    snapshots: {
      days: signalDays,
      computedDays: 0,
      prepare: async () => undefined,
      at: (day) => panel.snapshotAt(fromEpochDay(day), day),
    },
  };
}

describe.each(['monthly', 'weekly'] as const)('the survivors-only comparison (%s)', (rebalance) => {
  // The rank rule ranks within the universe: which companies the universe holds matters.
  const screen = screenOf(['ret_12m > 0', 'market_cap in top 50%'], { ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }] });
  const params = paramsOf(days, { rebalance, topN: 6, weighting: 'market_cap', commissionBps: 5 });
  const all = universe();
  const survivors = all.filter((s) => !s.delisted && s.tri[last - 10] !== null && s.tri[last] !== null);

  it('equals the same backtest on a universe without the companies that did not survive', async () => {
    const out = await runBacktestPair(
      marketInputs(all, rebalance),
      screen,
      params,
      async () => undefined,
      () => false,
    );
    const removed = runBacktest(inputsOf(days, survivors, screen, { rebalance, topN: 6, weighting: 'market_cap', commissionBps: 5 }));
    const comparison = out.stored.survivors;
    expect(comparison).not.toBeNull();
    expect(comparison!.securities).toBe(survivors.length);
    expect(comparison!.delistedExcluded).toBe(all.length - survivors.length);
    expect(comparison!.equity).toEqual(Array.from(removed.equity));
    expect(JSON.stringify(comparison!.statistics)).toBe(JSON.stringify(removed.statistics));
    // The main run held companies that did not survive: the comparison is not the run itself.
    const held = new Set(out.stored.rebalances.flatMap((r) => r.holdings.map((h) => h.permaticker)));
    expect(all.filter((s) => held.has(s.permaticker) && !survivors.includes(s)).length).toBeGreaterThan(0);
  });

  it('is the run itself, curve and statistics, when every company survived', async () => {
    const listed = all.filter((s) => !s.delisted && s.tri[last - 10] !== null && s.tri[last] !== null);
    const out = await runBacktestPair(
      marketInputs(listed, rebalance),
      screen,
      params,
      async () => undefined,
      () => false,
    );
    const comparison = out.stored.survivors;
    expect(comparison).not.toBeNull();
    expect(comparison!.securities).toBe(listed.length);
    expect(comparison!.delistedExcluded).toBe(0);
    expect(comparison!.equity).toEqual(out.stored.equity);
    expect(JSON.stringify(comparison!.statistics)).toBe(JSON.stringify(out.stored.statistics));
  });
});
