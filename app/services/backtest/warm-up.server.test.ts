import { describe, expect, it } from 'vitest';
import type { ComputedBacktest } from './compute.server';
import { WARM_UP_PASSES, WARM_UP_ROUNDS, warmUpBacktestEngine } from './warm-up.server';

// The compute process's JIT warm-up: real runs of the whole path (the run, its survivors-only
// comparison, the result's encoding) on a synthetic universe, which stop as soon as a real
// request is waiting.

describe('the backtest engine warm-up', () => {
  it('runs every round of backtests, with trades and a survivors comparison, on the synthetic universe', async () => {
    const outs: ComputedBacktest[] = [];
    const runs = await warmUpBacktestEngine(
      () => outs.length >= WARM_UP_ROUNDS.length,
      (out) => outs.push(out),
    );
    expect(runs).toBe(WARM_UP_ROUNDS.length);
    for (const out of outs) {
      expect(out.stored.rebalances.length).toBeGreaterThan(3);
      expect(out.stored.trades.length).toBeGreaterThan(10);
      expect(out.stored.rebalances.some((r) => r.holdings.length > 0)).toBe(true);
      expect(out.stored.survivors?.delistedExcluded).toBeGreaterThan(0);
      expect(Number.isFinite(out.stored.statistics.totalReturn)).toBe(true);
    }
    // Weekly rebalancing signals more often than monthly, monthly than quarterly.
    const signals = outs.map((o) => o.stored.rebalances.length);
    expect(signals[2]).toBeGreaterThan(signals[0]);
    expect(signals[0]).toBeGreaterThan(signals[3]);
    expect(new Set(outs.map((o) => o.stored.params.weighting)).size).toBe(4);
  });

  it('does nothing when a request is already waiting', async () => {
    let ran = 0;
    expect(
      await warmUpBacktestEngine(
        () => true,
        () => ran++,
      ),
    ).toBe(0);
    expect(ran).toBe(0);
  });

  it('stops in the middle of a run when a request arrives, and reports only the finished runs', async () => {
    let checks = 0;
    const finished: ComputedBacktest[] = [];
    // The engine checks for cancellation once per signal date: a request "arrives" on the 20th check.
    const runs = await warmUpBacktestEngine(
      () => ++checks > 20,
      (out) => finished.push(out),
    );
    expect(runs).toBe(finished.length);
    expect(runs).toBeLessThan(WARM_UP_ROUNDS.length * WARM_UP_PASSES);
  });
});
