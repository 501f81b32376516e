import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toEpochDay } from '../../dates';
import { readdirSync } from 'node:fs';
import { fromEpochDay } from '../../dates';
import { parseCompanyFacts } from '../../market/importers/sec/parse-companyfacts';
import { parsePriceCsv } from '../../market/importers/prices/parse-ohlcv';
import { adjustSeries } from '../../market/importers/prices/adjust';
import { SecurityEvaluator } from './evaluate';
import { buildFactColumns } from './facts';
import { metricIndex, N_METRICS } from './metric-index';
import {
  cleanCountRatio,
  cleanRatio,
  factObservations,
  inferSplits,
  inferSplitsFromPerShare,
  inferSplitsFromShareCounts,
  shareBasis,
  splitsKnownOn,
} from './share-basis';
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

describe('splits from share counts, and when an inferred split becomes known', () => {
  const count = (concept: string, end: number, filed: number, value: number, kind = 0) => ({ concept, kind, end, filed, value });

  it('recognises clean count ratios within buyback drift, and nothing else', () => {
    expect(cleanCountRatio(861_381_000, 5_987_867_000)).toBe(7); // Apple 2014
    expect(cleanCountRatio(4_334_335_000, 17_250_947_000)).toBe(4); // Apple 2020, after a quarter of buybacks
    expect(cleanCountRatio(1_000, 98)).toBe(0.1);
    expect(cleanCountRatio(1_000, 990)).toBeNull(); // a buyback
    expect(cleanCountRatio(1_000, 1_300)).toBeNull(); // an acquisition paid in shares
    expect(cleanCountRatio(1_000, 1_800)).toBeNull(); // 1.8 is no split ratio
    expect(cleanCountRatio(0, 1_000)).toBeNull();
  });

  it('a count that jumps once and falls back is not a split; one that stays is, known from the filing that shows it stays', () => {
    const odd = [
      count('shares_outstanding', 10, 20, 1_000),
      count('shares_outstanding', 100, 110, 4_000),
      count('shares_outstanding', 190, 200, 990),
    ];
    expect(inferSplitsFromShareCounts(odd)).toEqual([]);
    const kept = [
      count('shares_outstanding', 10, 20, 1_000),
      count('shares_outstanding', 100, 110, 4_000),
      count('shares_outstanding', 190, 200, 3_960),
    ];
    expect(inferSplitsFromShareCounts(kept)).toEqual([{ day: 110, ratio: 4, known: 200 }]);
  });

  it('two count concepts showing one ratio confirm it at the later of their filings', () => {
    const obs = [
      count('shares_outstanding', 10, 20, 1_000),
      count('shares_outstanding', 100, 110, 2_000),
      count('shares_diluted_avg', 10, 20, 1_010, 1),
      count('shares_diluted_avg', 100, 110, 1_005, 2), // the 10-K gives the year's average only: not compared
      count('shares_diluted_avg', 190, 200, 2_020, 1),
    ];
    expect(inferSplitsFromShareCounts(obs)).toEqual([{ day: 110, ratio: 2, known: 200 }]);
  });

  it('a split shown by two per-share values filed on different days is known from the later one (no look-ahead)', () => {
    const eps = (concept: string, end: number, filed: number, value: number) => ({ concept, kind: 1, end, filed, value });
    const splits = inferSplitsFromPerShare([
      eps('eps_diluted', 10, 20, 4),
      eps('eps_diluted', 10, 100, 1),
      eps('eps_basic', 40, 50, 4.2),
      eps('eps_basic', 40, 150, 1.05),
    ]);
    // The first filing on the new basis is day 100; the split is confirmed by the filing of day 150.
    expect(splits).toEqual([{ day: 100, ratio: 4, known: 150 }]);
    expect(splitsKnownOn(splits, 150)).toEqual([]);
    expect(splitsKnownOn(splits, 151)).toEqual(splits);
  });
});

describe('the metrics engine uses an inferred split only once it is known', () => {
  it('a TTM EPS between the first post-split filing and the one confirming the split is what was known then', () => {
    const row = (concept: string, end: string, start: string, filed: string, value: number) => ({
      concept,
      value,
      periodStart: start,
      periodEnd: end,
      fiscalPeriod: null,
      filed,
      accession: null,
    });
    const facts = buildFactColumns([
      row('eps_diluted', '2019-12-31', '2019-10-01', '2020-01-30', 4),
      row('eps_diluted', '2020-03-31', '2020-01-01', '2020-04-30', 4),
      row('eps_diluted', '2020-06-30', '2020-04-01', '2020-07-30', 4),
      row('eps_basic', '2020-06-30', '2020-04-01', '2020-07-30', 4.2),
      // A 4:1 split: the Q3 10-Q restates Q2 diluted EPS (one value: not yet a split) …
      row('eps_diluted', '2020-09-30', '2020-07-01', '2020-10-30', 1),
      row('eps_diluted', '2020-06-30', '2020-04-01', '2020-10-30', 1),
      // … and the 10-K restates Q2 basic EPS: the second value, the split is known from here.
      row('eps_basic', '2020-06-30', '2020-04-01', '2021-01-30', 1.05),
    ]);
    const days: number[] = [];
    for (let d = toEpochDay('2020-01-02'); d <= toEpochDay('2021-03-01'); d++) days.push(d);
    const ones = new Float64Array(days.length).fill(1);
    const nan = new Float64Array(days.length).fill(Number.NaN);
    const input: SecurityInput = {
      permaticker: 1,
      dates: Int32Array.from(days),
      close: ones,
      closeUnadj: nan,
      volume: ones,
      tri: nan,
      dividends: { exDate: new Int32Array(0), amount: new Float64Array(0) },
      facts,
      delisted: false,
    };
    const ttm = (date: string) => {
      const out = new Float64Array(N_METRICS);
      expect(new SecurityEvaluator(input).evaluateInto(toEpochDay(date), out, null)).toBe(true);
      return out[metricIndex('eps_diluted_ttm')];
    };
    // Before the confirmation nothing says the new values are on another basis: 4 + 4 + 1 + 1.
    expect(ttm('2020-11-15')).toBe(10);
    // From the day after the confirming filing, one basis: 1 + 1 + 1 + 1 (the quarters filed
    // before the split are divided by 4).
    expect(ttm('2021-02-01')).toBe(4);
    // One evaluator walking forward gives the same as fresh ones.
    const ev = new SecurityEvaluator(input);
    const out = new Float64Array(N_METRICS);
    ev.evaluateInto(toEpochDay('2020-11-15'), out, null);
    expect(out[metricIndex('eps_diluted_ttm')]).toBe(10);
    ev.evaluateInto(toEpochDay('2021-02-01'), out, null);
    expect(out[metricIndex('eps_diluted_ttm')]).toBe(4);
  });
});

describe('a split action of the store is used from its ex-date', () => {
  it('market cap on prices as traded does not jump on the ex-date', () => {
    const facts = buildFactColumns([
      {
        concept: 'shares_outstanding',
        value: 1000,
        periodStart: null,
        periodEnd: '2020-03-31',
        fiscalPeriod: 'Q1',
        filed: '2020-04-30',
        accession: null,
      },
    ]);
    const days: number[] = [];
    for (let d = toEpochDay('2020-05-01'); d <= toEpochDay('2020-06-30'); d++) days.push(d);
    const exDate = toEpochDay('2020-06-01');
    const input: SecurityInput = {
      permaticker: 1,
      dates: Int32Array.from(days),
      close: new Float64Array(days.length).fill(25),
      closeUnadj: Float64Array.from(days.map((d) => (d < exDate ? 100 : 25))),
      volume: new Float64Array(days.length).fill(1),
      tri: new Float64Array(days.length).fill(Number.NaN),
      dividends: { exDate: new Int32Array(0), amount: new Float64Array(0) },
      facts,
      splits: [{ day: exDate, ratio: 4 }],
      delisted: false,
    };
    const ev = new SecurityEvaluator(input);
    const cap = (day: number) => {
      const out = new Float64Array(N_METRICS);
      expect(ev.evaluateInto(day, out, null)).toBe(true);
      return out[metricIndex('market_cap')];
    };
    expect(cap(exDate - 1)).toBe(100_000);
    expect(cap(exDate)).toBe(100_000);
    expect(cap(exDate + 1)).toBe(100_000);
  });
});

const COMPANYFACTS = path.join(DATA, 'fundamentals/sec/companyfacts');
const hasFacts = existsSync(COMPANYFACTS);

describe.skipIf(!hasFacts)('splits from the real filings (every company in the sample)', () => {
  const found = (file: string) => {
    const records = parseCompanyFacts(JSON.parse(readFileSync(path.join(COMPANYFACTS, file), 'utf8')), file, 1).facts;
    const obs = factObservations(buildFactColumns(records));
    const fmt = (xs: { day: number; ratio: number; known?: number }[]) =>
      xs.map((x) => [fromEpochDay(x.day), x.ratio, fromEpochDay(x.known!)]);
    return { perShare: fmt(inferSplitsFromPerShare(obs)), counts: fmt(inferSplitsFromShareCounts(obs)), all: fmt(inferSplits(obs)) };
  };

  it('Apple 7:1 (2014) and 4:1 (2020) are found both from restated EPS and from the share counts', () => {
    const apple = found('CIK0000320193.json');
    // 10-Q of 2014-07-23: EPS restated and 5.99 B shares against 861 M in the 10-Q of 2014-04-24.
    expect(apple.perShare).toEqual([
      ['2014-07-23', 7, '2014-07-23'],
      ['2020-10-30', 4, '2020-10-30'],
    ]);
    // 2020: the 10-K of 2020-10-30 shows 16.98 B shares outstanding (4.33 B before); the quarterly
    // weighted average first shows it in the 10-Q of 2021-01-28, which confirms it.
    expect(apple.counts).toEqual([
      ['2014-07-23', 7, '2014-07-23'],
      ['2020-10-30', 4, '2021-01-28'],
    ]);
    expect(apple.all).toEqual(apple.perShare);
  });

  it('NVIDIA 4:1 (2021) and 10:1 (2024), Alphabet 20:1 (2022): both ways', () => {
    const nvda = found('CIK0001045810.json');
    expect(nvda.perShare).toEqual([
      ['2021-08-20', 4, '2021-08-20'],
      ['2024-08-28', 10, '2024-08-28'],
    ]);
    expect(nvda.counts).toEqual(nvda.perShare);
    const googl = found('CIK0001652044.json');
    expect(googl.perShare).toEqual([['2022-07-27', 20, '2022-07-27']]);
    // Alphabet files one count concept then: 13.08 B against 0.66 B, kept by the next 10-Q (12.97 B).
    expect(googl.counts).toEqual([['2022-07-27', 20, '2022-10-26']]);
  });

  it('no false split anywhere else in the sample (buybacks, issuance, IPOs, an IFRS filer)', () => {
    const others = readdirSync(COMPANYFACTS).filter((f) => !['CIK0000320193.json', 'CIK0001045810.json', 'CIK0001652044.json'].includes(f));
    expect(others.length).toBeGreaterThanOrEqual(3);
    for (const f of others) expect(found(f), f).toEqual({ perShare: [], counts: [], all: [] });
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
