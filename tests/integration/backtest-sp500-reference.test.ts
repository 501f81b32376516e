import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeBacktest } from '~/services/backtest/compute.server';
import { BacktestParamsSchema, type BacktestParamsInput } from '~/services/backtest/engine';
import { resetConfigForTests } from '~/services/config.server';
import { importers } from '~/services/market/importers/index.server';
import { silentProgress } from '~/services/imports/progress.server';
import { closeMarketReader, marketReader } from '~/services/market/store/open-store.server';
import { metricValue } from '~/services/metrics/engine/snapshot';
import { withMarketWriter } from '~/services/market/store/writer.server';
import { snapshotValue } from '~/services/metrics/snapshot-values';
import { buildSnapshots, loadSnapshot } from '~/services/metrics/snapshots.server';
import { ruleFromText, ScreenSchema } from '~/services/screener/model';
import { forwardFilled, readPanel, referenceBacktest, type Panel } from '../../bench/_sp500-reference';
import { tempDirForSuite } from '../support/temp-dir';

// The backtest's clock on real prices: the S&P 500 daily panel 2013–2018 is imported like any
// price file, and each backtest is checked against a plain loop written from the stated
// methodology alone (bench/_sp500-reference.ts, which the benchmark times too; it shares no code
// with the engine). Same names on every rebalance, total return and drawdown within 1e-6.

const PANEL = path.resolve('../shared/data/prices/sp500_stocks_daily_2013-2018.csv.gz');
const present = existsSync(PANEL);
if (!present) console.warn(`Skipping the S&P 500 reference backtests: ${PANEL} is absent`);

function maxDrawdown(equity: ArrayLike<number>): number {
  let peak = -Infinity;
  let worst = 0;
  for (let i = 0; i < equity.length; i++) {
    peak = Math.max(peak, equity[i]);
    worst = Math.min(worst, equity[i] / peak - 1);
  }
  return worst;
}

describe.skipIf(!present)('backtests on the real S&P 500 panel against an independent reference loop', () => {
  const dir = tempDirForSuite('quarry-sp500-reference-');
  const file = () => path.join(dir(), 'market.duckdb');
  const saved = { DATA_DIR: process.env.DATA_DIR, MARKET_DB: process.env.MARKET_DB };
  let panel: Panel;

  beforeAll(async () => {
    process.env.DATA_DIR = dir();
    process.env.MARKET_DB = file();
    resetConfigForTests();
    await withMarketWriter(file(), {}, (writer) =>
      importers.prices.run([PANEL, '--skip-bad-rows'], { writer, progress: silentProgress, env: {} }),
    );
    await buildSnapshots({ marketDb: file(), progress: silentProgress });
    panel = readPanel(PANEL);
  }, 600_000);

  afterAll(() => {
    closeMarketReader();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfigForTests();
  });

  const cases: { name: string; metric: string; lookback: number; params: BacktestParamsInput }[] = [
    {
      name: 'monthly, top 20 by 12-month return (stored month-end snapshots)',
      metric: 'ret_12m',
      lookback: 252,
      params: { start: '2013-02-08', end: '2018-02-07', rebalance: 'monthly', topN: 20 },
    },
    {
      name: 'weekly, top 10 by 3-month return (snapshots computed for the signal days)',
      metric: 'ret_3m',
      lookback: 63,
      params: { start: '2015-01-01', end: '2018-02-07', rebalance: 'weekly', topN: 10 },
    },
  ];

  it.each(cases)('$name', async ({ metric, lookback, params: input }) => {
    const params = BacktestParamsSchema.parse(input);
    const screen = ScreenSchema.parse({ rules: [ruleFromText(`${metric} > 0`)], ranking: [{ metric, direction: 'desc', weight: 1 }] });
    const { stored } = await computeBacktest(
      screen,
      { ...params, initialCapital: 1000 },
      async () => undefined,
      () => false,
    );
    const ref = referenceBacktest(panel, {
      rebalance: params.rebalance as 'weekly' | 'monthly',
      lookback,
      top: params.topN as number,
      start: params.start,
    });

    expect(stored.rebalances.map((r) => r.signalDate)).toEqual(ref.picks.map((p) => p.signal));
    for (let k = 0; k < ref.picks.length; k++)
      expect(stored.rebalances[k].holdings.map((h) => h.ticker).sort(), stored.rebalances[k].signalDate).toEqual(ref.picks[k].names);
    expect(stored.dates).toHaveLength(ref.equity.length);
    const total = stored.equity[stored.equity.length - 1] / stored.equity[0] - 1;
    const refTotal = ref.equity[ref.equity.length - 1] / ref.equity[0] - 1;
    expect(Math.abs(total - refTotal)).toBeLessThan(1e-6);
    expect(Math.abs(stored.statistics.totalReturn - refTotal)).toBeLessThan(1e-6);
    expect(Math.abs(stored.statistics.maxDrawdown - maxDrawdown(ref.equity))).toBeLessThan(1e-6);
    // The result is more than cash: the screen picked names on most rebalances.
    expect(ref.picks.filter((p) => p.names.length === params.topN).length).toBeGreaterThan(ref.picks.length / 2);
  });

  it('ICE on 2014-05-30: its 12-month return reaches back 252 exchange days over its missing days', async () => {
    const [{ permaticker }] = await (
      await marketReader()
    ).all<{ permaticker: number }>(`SELECT permaticker::INTEGER AS permaticker FROM securities WHERE ticker = 'ICE'`);
    const snap = await loadSnapshot('2014-05-30', { metrics: ['ret_12m'] });
    const k = panel.tickers.indexOf('ICE');
    const px = forwardFilled(panel)[k];
    const t = panel.dates.indexOf('2014-05-30');
    // ICE misses days in the panel: 252 of its own bars reach further back than 252 exchange days.
    const ownBars = panel.close[k].slice(0, t + 1).filter((v) => !Number.isNaN(v));
    expect(ownBars.length).toBeLessThan(t + 1);
    const expected = px[t] / px[t - 252] - 1;
    expect(expected).toBeCloseTo(0.107, 3);
    // Snapshot values are kept to 7 significant digits (snapshot-values.ts).
    expect(metricValue(snap, permaticker, 'ret_12m')).toBe(snapshotValue(expected));
  });
});
