import { describe, expect, it } from 'vitest';
import {
  alignedPercent,
  chartHref,
  chooseSampling,
  MAX_COMPARE_TOKENS,
  MAX_TOKEN_LENGTH,
  onBasis,
  parseCompareList,
  percentFrom,
  periodKey,
  sampleRows,
  samplingNote,
  thinIndices,
  type DayRow,
  type StoredPrice,
} from './price-chart';
import { addDays } from '../dates';

// A 2-for-1 split on 2024-01-03 and a dividend of 1 on 2024-01-04 (tri grows by the dividend).
const rows: StoredPrice[] = [
  { date: '2024-01-02', close: 50, close_unadj: 100, volume: 2_000, tri: 100 },
  { date: '2024-01-03', close: 51, close_unadj: 51, volume: 3_000, tri: 102 },
  { date: '2024-01-04', close: 50, close_unadj: 50, volume: 1_000, tri: 102 },
];

describe('onBasis', () => {
  it('raw: closes as traded, volume in shares traded that day', () => {
    const { points, dividends } = onBasis(rows, 'raw');
    expect(points.map((p) => p.close)).toEqual([100, 51, 50]);
    // Stored volume is split-adjusted (2,000 new shares = 1,000 old ones).
    expect(points.map((p) => p.volume)).toEqual([1_000, 3_000, 1_000]);
    expect(dividends).toBe(false);
  });

  it('adjusted: the total-return index scaled to end on the last split-adjusted close', () => {
    const { points, dividends } = onBasis(rows, 'adjusted');
    expect(dividends).toBe(true);
    expect(points[2].close).toBe(50);
    expect(points[1].close).toBeCloseTo(50, 10);
    expect(points[0].close).toBeCloseTo(49.0196, 3);
    expect(points.map((p) => p.volume)).toEqual([2_000, 3_000, 1_000]);
  });

  it('adjusted without a total-return index on every day: split-adjusted only, said so', () => {
    const { points, dividends } = onBasis([rows[0], { ...rows[1], tri: null }, rows[2]], 'adjusted');
    expect(dividends).toBe(false);
    expect(points.map((p) => p.close)).toEqual([50, 51, 50]);
  });

  it('raw without an as-traded close keeps the stored close; empty stays empty', () => {
    expect(onBasis([{ ...rows[0], close_unadj: null }], 'raw').points[0]).toEqual({ date: '2024-01-02', close: 50, volume: 2_000 });
    expect(onBasis([], 'adjusted')).toEqual({ points: [], dividends: false });
  });
});

describe('percent change', () => {
  it('from the first positive value; nulls stay null', () => {
    expect(percentFrom([null, 0, 10, 12, null, 5])).toEqual([null, -1, 0, expect.closeTo(0.2, 10), null, -0.5]);
    expect(percentFrom([null, null])).toEqual([null, null]);
  });

  it('comparisons on the company’s dates, from their own first close in the range', () => {
    const dates = ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'];
    const other = [
      { date: '2024-01-03', close: 20, volume: null },
      { date: '2024-01-05', close: 25, volume: null },
      { date: '2024-01-06', close: 30, volume: null },
    ];
    expect(alignedPercent(dates, other)).toEqual([null, 0, null, 0.25]);
    expect(alignedPercent(dates, [])).toEqual([null, null, null, null]);
  });
});

describe('parseCompareList (hostile input)', () => {
  it('empty and comma-only lists give nothing', () => {
    expect(parseCompareList([])).toEqual({ tokens: [], extra: 0 });
    expect(parseCompareList([''])).toEqual({ tokens: [], extra: 0 });
    expect(parseCompareList([','.repeat(50)])).toEqual({ tokens: [], extra: 0 });
    expect(parseCompareList([' , ,\t, '])).toEqual({ tokens: [], extra: 0 });
  });

  it('trims, drops duplicates case-insensitively, keeps names with spaces, reads repeated parameters', () => {
    expect(parseCompareList([' aaa ,AAA,bbb', 'Big  Corp', 'aaa'])).toEqual({ tokens: ['aaa', 'bbb', 'Big Corp'], extra: 0 });
  });

  it('caps the number and the length of entries', () => {
    const many = Array.from({ length: 50 }, (_, i) => `T${i}`).join(',');
    const { tokens, extra } = parseCompareList([many]);
    expect(tokens).toHaveLength(MAX_COMPARE_TOKENS);
    expect(extra).toBe(50 - MAX_COMPARE_TOKENS);
    expect(parseCompareList(['x'.repeat(500)]).tokens[0]).toHaveLength(MAX_TOKEN_LENGTH);
  });
});

describe('sampling', () => {
  const tradingDays = (from: string, n: number) => {
    const out: string[] = [];
    for (let d = from; out.length < n; d = addDays(d, 1)) {
      const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
      if (wd !== 0 && wd !== 6) out.push(d);
    }
    return out;
  };

  it('daily up to 260 rows, then weekly, monthly, quarterly', () => {
    expect(chooseSampling(tradingDays('2024-01-01', 252))).toBe('daily');
    expect(chooseSampling(tradingDays('2020-01-01', 5 * 261))).toBe('monthly');
    expect(chooseSampling(tradingDays('2021-01-01', 3 * 261))).toBe('weekly');
    expect(chooseSampling(tradingDays('2000-01-01', 25 * 261))).toBe('quarterly');
    expect(chooseSampling([])).toBe('daily');
  });

  it('weeks start on Monday', () => {
    expect(periodKey('2024-01-01', 'weekly')).toBe(periodKey('2024-01-07', 'weekly'));
    expect(periodKey('2024-01-07', 'weekly')).not.toBe(periodKey('2024-01-08', 'weekly'));
    expect(periodKey('2024-05-31', 'quarterly')).toBe('2024Q1');
  });

  it('a row per period: last close, change from the previous row, the period’s volume', () => {
    const days: DayRow[] = [
      { date: '2024-01-30', close: 10, volume: 100, compare: [0] },
      { date: '2024-01-31', close: 11, volume: null, compare: [0.1] },
      { date: '2024-02-01', close: 12, volume: 50, compare: [0.2] },
      { date: '2024-02-29', close: 13.2, volume: 25, compare: [null] },
    ];
    const out = sampleRows(days, 'monthly');
    expect(out).toEqual([
      { date: '2024-01-31', close: 11, change: null, volume: 100, compare: [0.1] },
      { date: '2024-02-29', close: 13.2, change: expect.closeTo(0.2, 10), volume: 75, compare: [null] },
    ]);
    expect(sampleRows(days, 'daily').map((r) => r.change)).toEqual([
      null,
      expect.closeTo(0.1, 10),
      expect.closeTo(1 / 11, 10),
      expect.closeTo(0.1, 10),
    ]);
    expect(sampleRows([{ ...days[0], volume: null }], 'daily')[0].volume).toBeNull();
  });

  it('says what the rows are', () => {
    expect(samplingNote('daily', 21)).toBe('Daily closes, 21 trading days.');
    expect(samplingNote('weekly', 1300)).toContain('1,300 trading days shown weekly');
  });
});

describe('thinIndices and links', () => {
  it('keeps first and last, at most max', () => {
    expect(thinIndices(3, 400)).toEqual([0, 1, 2]);
    const t = thinIndices(6_300, 400);
    expect(t.length).toBeLessThanOrEqual(400);
    expect(t[0]).toBe(0);
    expect(t[t.length - 1]).toBe(6_299);
  });

  it('builds the tab address', () => {
    expect(chartHref({ range: '5Y', basis: 'raw', ma: false, compare: ['AAA', 'B&B'] }, '2023-06-30')).toBe(
      '?as_of=2023-06-30&range=5Y&basis=raw&compare=AAA%2CB%26B',
    );
    expect(chartHref({ range: '1Y', basis: 'adjusted', ma: true, compare: [] }, null)).toBe('?range=1Y&basis=adjusted&ma=1');
  });
});
