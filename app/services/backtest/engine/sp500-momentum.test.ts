import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { toEpochDay } from '../../dates';
import type { MetricSnapshot } from '../../metrics/engine/types';
import type { SecurityMeta } from '../../screener/engine/types';
import { BacktestParamsSchema } from './params';
import { runBacktest } from './simulate';
import { dailyReturns, mean, stdev } from './statistics';
import { screenOf } from './test-panel';
import type { PriceSeries } from './types';

// Real prices (../shared/data, described in its SOURCES.md): a 12-month momentum screen on
// 50 S&P 500 stocks, 2013–2018. The closes carry no dividends, so the total-return index is the close here.
const file = path.resolve(__dirname, '../../../../../shared/data/prices/sp500_stocks_daily_2013-2018_sample.csv');
const present = existsSync(file);
const LOOKBACK = 252;

function load() {
  const rows = parse(readFileSync(file), { columns: true, skip_empty_lines: true }) as { date: string; close: string; Name: string }[];
  const byName = new Map<string, { days: number[]; close: number[] }>();
  for (const r of rows) {
    const s = byName.get(r.Name) ?? { days: [], close: [] };
    byName.set(r.Name, s);
    s.days.push(toEpochDay(r.date));
    s.close.push(Number(r.close));
  }
  const names = [...byName.keys()].sort();
  const lastDay = Math.max(...names.map((n) => byName.get(n)!.days.at(-1)!));
  const series: PriceSeries[] = names.map((n, i) => {
    const s = byName.get(n)!;
    const close = Float64Array.from(s.close);
    return { permaticker: i + 1, days: Int32Array.from(s.days), tri: close, close, delisted: s.days.at(-1)! < lastDay };
  });
  const securities: SecurityMeta[] = names.map((n, i) => ({
    permaticker: i + 1,
    ticker: n,
    name: n,
    exchange: 'NYSE',
    sector: null,
    industry: null,
    isDelisted: series[i].delisted,
    lastPriceDate: null,
  }));
  // 12-month return known at each close: close / close 252 bars earlier − 1 (n/a before that).
  const snapshotAt = (date: string, day: number): MetricSnapshot => {
    const perms: number[] = [];
    const ret: number[] = [];
    const price: number[] = [];
    for (const s of series) {
      const i = s.days.indexOf(day);
      if (i < 0) continue;
      perms.push(s.permaticker);
      price.push(s.close[i]);
      ret.push(i >= LOOKBACK ? s.close[i] / s.close[i - LOOKBACK] - 1 : Number.NaN);
    }
    return {
      date,
      day,
      permatickers: Int32Array.from(perms),
      values: { ret_12m: Float64Array.from(ret), price: Float64Array.from(price) },
    };
  };
  return { prices: { series }, securities, snapshotAt };
}

const title = `momentum backtest on real S&P 500 prices${present ? '' : ` (skipped: ${file} is absent)`}`;

// The suite reads the file while it is collected, so without the file it is not collected at all.
(present ? describe : describe.skip)(title, () => {
  if (!present) {
    it.skip('needs the real prices', () => undefined);
    return;
  }
  const data = load();
  const screen = screenOf(['ret_12m > 0'], { ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }] });
  const params = BacktestParamsSchema.parse({
    start: '2013-02-08',
    end: '2018-02-07',
    rebalance: 'monthly',
    topN: 10,
    commissionBps: 5,
    slippageBps: 5,
  });
  const run = () => runBacktest({ ...data, screen, params });
  const result = run();
  const s = result.statistics;

  it('is reproducible bit for bit', () => {
    const again = run();
    expect(Array.from(new Uint32Array(again.equity.buffer))).toEqual(Array.from(new Uint32Array(result.equity.buffer)));
    expect(JSON.stringify(again.statistics)).toBe(JSON.stringify(s));
    expect(JSON.stringify(again.trades)).toBe(JSON.stringify(result.trades));
  });

  it('holds nothing before a 12-month return exists, then ten momentum stocks', () => {
    const firstTrade = result.trades[0].date;
    expect(firstTrade > '2014-02-07').toBe(true);
    expect(result.equity[result.dates.indexOf(firstTrade) - 1]).toBe(10_000);
    const later = result.rebalances.filter((r) => r.tradeDate > '2014-03-01');
    expect(later.length).toBeGreaterThan(40);
    for (const r of later) {
      expect(r.holdings).toHaveLength(10);
      const rets = r.holdings.map((h) => h.values.ret_12m as number);
      expect(rets).toEqual([...rets].sort((a, b) => b - a));
      expect(Math.min(...rets)).toBeGreaterThan(0);
    }
  });

  it('computes its statistics from its own equity curve', () => {
    const e = result.equity;
    const last = e.length - 1;
    expect(s.totalReturn).toBeCloseTo(e[last] / e[0] - 1, 12);
    expect(s.years).toBeCloseTo((toEpochDay(result.dates[last]) - toEpochDay(result.dates[0])) / 365.25, 12);
    expect(s.cagr).toBeCloseTo(Math.pow(e[last] / e[0], 1 / s.years) - 1, 12);
    const r = dailyReturns(e);
    expect(s.annualVolatility).toBeCloseTo(stdev(r) * Math.sqrt(252), 12);
    expect(s.sharpe).toBeCloseTo((mean(r) / stdev(r)) * Math.sqrt(252), 10);
    expect(s.maxDrawdown).toBe(Math.min(...result.drawdown));
    const trough = result.dates.indexOf(s.troughDate!);
    expect(result.drawdown[trough]).toBe(s.maxDrawdown);
    expect(Math.max(...e.subarray(0, trough + 1))).toBe(e[result.dates.indexOf(s.peakDate!)]);
    // Compounding the monthly table (and the yearly returns) gives back the total return.
    const months = s.monthlyReturns.flatMap((y) => y.months.filter((m): m is number => m !== null));
    expect(months.reduce((g, m) => g * (1 + m), 1) - 1).toBeCloseTo(s.totalReturn, 9);
    expect(s.monthlyReturns.reduce((g, y) => g * (1 + y.year_return), 1) - 1).toBeCloseTo(s.totalReturn, 9);
    expect(s.bestMonth).toBe(Math.max(...months));
    expect(s.totalCosts).toBeGreaterThan(0);
    expect(s.totalCosts).toBeCloseTo(
      result.trades.reduce((c, t) => c + t.cost, 0),
      6,
    );
  });
});
