import { describe, expect, it } from 'vitest';
import { parseAsOf } from '../http/as-of';
import { adjustForSplits, annualTotals } from './dividend-history';
import { equalWeightIndex, movers, sectorPerformance } from '../market-overview/market-summary';
import { movingAverage, rangeStart } from './price-ranges';
import { filingArchiveUrl } from '../market/sec-links';
import { cagr, growthRate, mean, median, ratio } from '../stats';
import { meaningfulMultiple, trailingAverage } from './valuation-history';

// Every number the company and home pages compute themselves, on small fixtures worked out by hand.

describe('stats', () => {
  it('mean and median skip missing values and are n/a when empty', () => {
    expect(mean([1, 2, null, 6])).toBe(3);
    expect(median([5, null, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(mean([null, Number.NaN])).toBeNull();
    expect(median([])).toBeNull();
    // Numerically, not as text ([10, 9, 100] sorted as strings puts 100 first), negatives
    // included; infinities are missing values too.
    expect(median([10, 9, 100])).toBe(10);
    expect(median([-2, 30, -15, Number.POSITIVE_INFINITY, 4])).toBe(1);
  });
  it('growth needs a positive base; CAGR needs both ends positive', () => {
    expect(growthRate(120, 100)).toBeCloseTo(0.2, 12);
    expect(growthRate(120, 0)).toBeNull();
    expect(growthRate(120, -10)).toBeNull();
    expect(cagr(121, 100, 2)).toBeCloseTo(0.1, 12);
    expect(cagr(0, 100, 2)).toBeNull();
    expect(ratio(30, 120)).toBe(0.25);
    expect(ratio(30, 0)).toBeNull();
  });
});

describe('dividends', () => {
  it('restates dividends before a split into today’s shares and totals calendar years', () => {
    const rows = adjustForSplits(
      [
        { date: '2022-03-01', amount: 1 },
        { date: '2022-09-01', amount: 1 },
        { date: '2023-03-01', amount: 0.55 },
        { date: '2023-09-01', amount: 0.55 },
        { date: '2024-03-01', amount: 0.6 },
      ],
      [{ date: '2022-12-01', ratio: 2 }],
    );
    expect(rows.map((r) => r.adjusted)).toEqual([0.5, 0.5, 0.55, 0.55, 0.6]);
    const annual = annualTotals(rows);
    expect(annual.map((a) => [a.year, a.payments])).toEqual([
      [2022, 2],
      [2023, 2],
      [2024, 1],
    ]);
    expect(annual[0].total).toBeCloseTo(1, 12);
    expect(annual[1].total).toBeCloseTo(1.1, 12);
    expect(annual[0].growth).toBeNull();
    expect(annual[1].growth).toBeCloseTo(0.1, 12); // 1.10 / 1.00 − 1
  });
});

describe('valuation', () => {
  it('five-year average covers (end − 5 years, end]', () => {
    const pts = [
      { date: '2018-12-31', value: 100 }, // outside
      { date: '2019-12-31', value: 10 }, // exactly five years back: outside the half-open window
      { date: '2021-12-31', value: 20 },
      { date: '2024-12-31', value: null },
      { date: '2024-11-29', value: 30 },
    ];
    expect(trailingAverage(pts, '2024-12-31', 5)).toBe(25); // (20 + 30) / 2
    expect(trailingAverage(pts, '2024-12-29', 5)).toBe(20); // window starts after 2019-12-30 (1,826 days): (10 + 20 + 30) / 3
  });
  it('a negative multiple means nothing; a negative FCF yield does', () => {
    expect(meaningfulMultiple('pe_ttm', -12)).toBeNull();
    expect(meaningfulMultiple('pe_ttm', 15)).toBe(15);
    expect(meaningfulMultiple('fcf_yield', -0.02)).toBe(-0.02);
  });
});

describe('market overview', () => {
  it('equal-weighted index compounds daily means from 100', () => {
    const idx = equalWeightIndex([
      { date: '2024-01-02', ret: 0.5 },
      { date: '2024-01-03', ret: 0.1 },
      { date: '2024-01-04', ret: null },
      { date: '2024-01-05', ret: -0.5 },
    ]);
    expect(idx.map((p) => p.value)).toEqual([100, 110.00000000000001, 110.00000000000001, 55.00000000000001]);
  });
  it('sector performance: medians and a mean per sector, best 12 months first', () => {
    const rows = sectorPerformance([
      { sector: 'Tech', ret1m: 0.1, retYtd: 0.2, ret1y: 0.3 },
      { sector: 'Tech', ret1m: 0.3, retYtd: null, ret1y: 0.5 },
      { sector: 'Energy', ret1m: -0.1, retYtd: 0, ret1y: 0.1 },
      { sector: null, ret1m: null, retYtd: null, ret1y: null },
    ]);
    expect(rows.map((r) => r.sector)).toEqual(['Tech', 'Energy', 'Unclassified']);
    expect(rows[0]).toMatchObject({ companies: 2, medianReturn1m: 0.2, medianReturnYtd: 0.2, medianReturn1y: 0.4, averageReturn1y: 0.4 });
  });
  it('movers: largest gains and losses, missing values never move', () => {
    const m = movers(
      [
        { key: 'A', value: 0.05 },
        { key: 'B', value: -0.08 },
        { key: 'C', value: null },
        { key: 'D', value: 0.02 },
        { key: 'E', value: -0.01 },
      ],
      1,
    );
    expect(m.gainers.map((r) => r.key)).toEqual(['A']);
    expect(m.losers.map((r) => r.key)).toEqual(['B']);
  });
});

describe('price chart', () => {
  it('simple moving average waits for a full window', () => {
    expect(movingAverage([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2, 3, 4]);
  });
  it('ranges end on the as-of day', () => {
    expect(rangeStart('1M', '2024-03-31')).toBe('2024-03-01');
    expect(rangeStart('YTD', '2024-03-31')).toBe('2024-01-01');
    expect(rangeStart('1Y', '2024-02-29')).toBe('2023-03-01');
    expect(rangeStart('5Y', '2024-06-28')).toBe('2019-06-29');
    expect(rangeStart('Max', '2024-06-28')).toBeNull();
  });
});

describe('links and dates', () => {
  it('builds the SEC archive folder from CIK and accession, never for demo data', () => {
    expect(filingArchiveUrl('0000320193', '0000320193-23-000106', false)).toBe(
      'https://www.sec.gov/Archives/edgar/data/320193/000032019323000106/',
    );
    expect(filingArchiveUrl('0000320193', '0000320193-23-000106', true)).toBeNull();
    expect(filingArchiveUrl(null, '0000320193-23-000106', false)).toBeNull();
    expect(filingArchiveUrl('320193', 'bogus', false)).toBeNull();
  });
  it('as_of must be a real date', () => {
    expect(parseAsOf(null)).toEqual({ ok: true, asOf: null });
    expect(parseAsOf(' 2024-02-29 ')).toEqual({ ok: true, asOf: '2024-02-29' });
    expect(parseAsOf('2023-02-29').ok).toBe(false);
    expect(parseAsOf('29/02/2024').ok).toBe(false);
  });
});
