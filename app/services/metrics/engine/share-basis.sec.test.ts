import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toEpochDay } from '../../dates';
import { parseCompanyFacts } from '../../market/importers/sec/parse-companyfacts';
import { parsePriceCsv } from '../../market/importers/prices/parse-ohlcv';
import { adjustSeries } from '../../market/importers/prices/adjust';
import { SecurityEvaluator } from './evaluate';
import { buildFactColumns } from './facts';
import { metricIndex, N_METRICS } from './metric-index';
import { cleanRatio, inferSplits, shareBasis } from './share-basis';
import type { SecurityInput } from './types';

// Market cap and multiples on a split-adjusted price file without split actions (the S&P 500
// panel, adjusted as of Feb 2018): the shares must be put on the prices' basis, or Apple's
// market cap jumps sevenfold the day its first post-split 10-Q becomes known.

const DATA = path.resolve('../shared/data');
const facts = path.join(DATA, 'fundamentals/sec/companyfacts/CIK0000320193.json');
const panel = path.join(DATA, 'prices/sp500_stocks_daily_2013-2018_sample.csv');
const hasData = existsSync(facts) && existsSync(panel);
if (!hasData) console.warn(`Skipping the market-cap basis check: ${DATA} is absent`);

describe('share basis', () => {
  it('recognises clean split ratios through cent rounding, and nothing else', () => {
    expect(cleanRatio(44.15, 6.31)).toBe(7);
    expect(cleanRatio(11.93, 1.19)).toBe(10);
    expect(cleanRatio(24.62, 1.23)).toBe(20);
    expect(cleanRatio(0.5, 5)).toBe(0.1);
    expect(cleanRatio(6.29, 9.08)).toBeNull(); // Apple's FY2009 restatement, not a split
    expect(cleanRatio(0.02, 0.01)).toBeNull(); // too small to tell
    expect(cleanRatio(-1, 0.5)).toBeNull();
  });

  it('a single restated value is not a split; two are', () => {
    const obs = (concept: string, end: number, filed: number, value: number) => ({ concept, kind: 1, end, filed, value });
    expect(inferSplits([obs('eps_diluted', 10, 20, 4), obs('eps_diluted', 10, 100, 1)])).toEqual([]);
    const two = inferSplits([
      obs('eps_diluted', 10, 20, 4),
      obs('eps_diluted', 10, 100, 1),
      obs('eps_basic', 10, 20, 4.2),
      obs('eps_basic', 10, 100, 1.05),
    ]);
    expect(two).toEqual([{ day: 100, ratio: 4, known: 100 }]);
    expect(shareBasis(two, 99)).toBe(1);
    expect(shareBasis(two, 100)).toBe(4);
  });
});

describe.skipIf(!hasData)('market cap on the S&P 500 panel (split-adjusted, no split actions)', () => {
  it('Apple around its first post-split 10-Q (2014-07-23): no jump, about 570 B', () => {
    const parsed = parsePriceCsv(readFileSync(panel, 'utf8'), panel, { ticker: null });
    const bars = parsed.series.get('AAPL')!;
    const { prices } = adjustSeries(bars, parsed.layout, 1, 'prices');
    const records = parseCompanyFacts(JSON.parse(readFileSync(facts, 'utf8')), 'AAPL', 1).facts;
    const n = prices.length;
    const input: SecurityInput = {
      permaticker: 1,
      dates: Int32Array.from(prices.map((p) => toEpochDay(p.date))),
      close: Float64Array.from(prices.map((p) => p.close)),
      closeUnadj: Float64Array.from(prices.map((p) => p.closeUnadj ?? Number.NaN)),
      volume: Float64Array.from(prices.map((p) => p.volume ?? Number.NaN)),
      tri: Float64Array.from(prices.map((p) => p.tri ?? Number.NaN)),
      dividends: { exDate: new Int32Array(0), amount: new Float64Array(0) },
      facts: buildFactColumns(records),
      delisted: false,
    };
    expect(n).toBeGreaterThan(1000);
    const ev = new SecurityEvaluator(input);
    const at = (date: string) => {
      const row = new Float64Array(N_METRICS);
      expect(ev.evaluateInto(toEpochDay(date), row, null)).toBe(true);
      return { mcap: row[metricIndex('market_cap')], pe: row[metricIndex('pe_ttm')], eps: row[metricIndex('eps_diluted_ttm')] };
    };
    const before = at('2014-07-22');
    const after = at('2014-07-24');
    expect(before.mcap).toBeGreaterThan(500e9);
    expect(before.mcap).toBeLessThan(650e9);
    expect(Math.abs(after.mcap / before.mcap - 1)).toBeLessThan(0.05);
    expect(before.pe).toBeGreaterThan(12);
    expect(Math.abs(after.pe / before.pe - 1)).toBeLessThan(0.1);
    // EPS on the basis of each day: pre-split before the first post-split filing, post-split after.
    expect(before.eps).toBeGreaterThan(30);
    expect(after.eps).toBeLessThan(10);
  });
});
