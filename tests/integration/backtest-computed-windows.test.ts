import { describe, expect, it } from 'vitest';
import { BacktestParamsSchema } from '~/services/backtest/engine';
import { loadMarketInputs, marketDataRange, type MarketInputs } from '~/services/backtest/market-inputs.server';
import { fromEpochDay } from '~/services/dates';
import { closeMarketReader, marketReader, storeVersion } from '~/services/market/store/open-store.server';
import { computeSnapshots, type ComputeOptions } from '~/services/metrics/computed-snapshots.server';
import { openSnapshotEvaluators, type SnapshotEvaluators } from '~/services/metrics/snapshot-evaluators.server';
import { cachedTradingCalendar, listSecurities, loadMarketReturns } from '~/services/metrics/store-loader.server';
import { ScreenSchema, ruleFromText } from '~/services/screener/model';
import { testMarket } from '../support/backtest-market';
import { useTestMarket } from '../support/use-test-market';

// A weekly backtest's signal days are not stored: they are computed from the store a window of
// days at a time, each window reading its securities' history again (market-inputs.server.ts).
// However the days are cut into windows, and whether blocks of securities are evaluated in
// evaluator threads or in the caller's thread, every day's snapshot must be the same.

const market = testMarket({ companies: 40, years: 3, seed: 5 });
useTestMarket(market);

const screen = ScreenSchema.parse({ rules: ['market_cap > 0', 'ret_3m > -1'].map(ruleFromText) });

async function weeklySnapshots(computedWindowBytes?: number): Promise<{ inputs: MarketInputs; text: string[] }> {
  closeMarketReader();
  const range = await marketDataRange();
  const params = BacktestParamsSchema.parse({ start: range.first, end: range.last, rebalance: 'weekly', topN: 5, initialCapital: 1000 });
  const inputs = await loadMarketInputs(screen, params, async () => undefined, { computedWindowBytes });
  const text: string[] = [];
  for (let k = 0; k < inputs.snapshots.days.length; k++) {
    await inputs.snapshots.prepare(k);
    const s = inputs.snapshots.at(inputs.snapshots.days[k]);
    text.push(
      JSON.stringify({
        date: fromEpochDay(s.day),
        permatickers: Array.from(s.permatickers),
        values: Object.fromEntries(Object.entries(s.values).map(([id, v]) => [id, Array.from(v, (x) => (Number.isNaN(x) ? 'n/a' : x))])),
      }),
    );
  }
  return { inputs, text };
}

describe('computed signal days', () => {
  it('are the same in one window as in windows of eight days', async () => {
    const whole = await weeklySnapshots();
    // Most weeks are computed (only those ending a month are stored).
    expect(whole.inputs.snapshots.computedDays).toBeGreaterThan(100);
    const cut = await weeklySnapshots(1);
    expect(cut.text.length).toBe(whole.text.length);
    for (let k = 0; k < whole.text.length; k++) expect(cut.text[k], `signal day ${k}`).toBe(whole.text[k]);
    // And they hold values, not only n/a.
    expect(whole.text.some((t) => /"market_cap":\[\d/.test(t))).toBe(true);
  });

  it('are the same evaluated in blocks in two evaluator threads as in one block in this thread', async () => {
    const { inputs } = await weeklySnapshots();
    const days = inputs.snapshots.days.slice(0, 60);
    const r = await marketReader();
    const conn = await r.connect();
    const pool = await openSnapshotEvaluators(2);
    try {
      const base: ComputeOptions = {
        securities: await listSecurities(conn),
        market: await loadMarketReturns(conn),
        calendar: await cachedTradingCalendar(conn, storeVersion(r.file)),
      };
      const metrics = ['market_cap', 'ret_3m', 'pe_ttm'];
      let handed = 0;
      const counted: SnapshotEvaluators = { ...pool, compute: (job) => (handed++, pool.compute(job)) };
      const alone = await computeSnapshots(conn, days, metrics, base);
      const threaded = await computeSnapshots(conn, days, metrics, { ...base, evaluators: counted, blockSize: 7 });
      // The companies listed in those weeks, in blocks of seven: each block went to a thread.
      expect(pool.inFlight).toBe(2);
      expect(handed).toBe(Math.ceil(new Set(alone.flatMap((s) => Array.from(s.permatickers))).size / 7));
      expect(handed).toBeGreaterThan(2);
      expect(threaded.map((s) => s.day)).toEqual(Array.from(days));
      const text = (snaps: typeof alone) =>
        snaps.map((s) =>
          JSON.stringify({
            permatickers: Array.from(s.permatickers),
            values: Object.fromEntries(metrics.map((id) => [id, Array.from(s.values[id], (x) => (Number.isNaN(x) ? 'n/a' : x))])),
          }),
        );
      expect(text(threaded)).toEqual(text(alone));
      expect(alone.some((s) => s.permatickers.length >= 20 && s.values.market_cap.some((v) => v > 0))).toBe(true);
    } finally {
      await pool.close();
      conn.closeSync();
    }
  });
});
