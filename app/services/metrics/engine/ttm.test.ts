import { describe, expect, it } from 'vitest';
import { toEpochDay } from '../../dates';
import { fiscalYear, fixtureSecurity, instant, quarter } from '../testing/fixtures';
import { evaluateAt } from './evaluate';
import { metricValue } from './snapshot';

// Revenue of a calendar-year filer: 10-Qs for Q1–Q3, a 10-K for the year (no Q4 filed).
const facts = [
  quarter('revenue', 2022, 1, 100, '2022-05-10'),
  quarter('revenue', 2022, 2, 110, '2022-08-10'),
  quarter('revenue', 2022, 3, 120, '2022-11-10'),
  fiscalYear('revenue', 2022, 480, '2023-02-20'), // Q4 2022 = 480 − 330 = 150
  quarter('revenue', 2023, 1, 130, '2023-05-10'),
  quarter('revenue', 2023, 2, 140, '2023-08-10'),
  quarter('revenue', 2023, 3, 150, '2023-11-10'),
  fiscalYear('revenue', 2023, 600, '2024-02-20'), // Q4 2023 = 600 − 420 = 180
  quarter('revenue', 2024, 1, 160, '2024-05-10'),
  instant('shares_outstanding', '2024-03-31', 10, '2024-05-10'),
];
const sec = fixtureSecurity({
  start: '2021-06-01',
  days: 900,
  close: () => 50,
  facts,
});
const at = (date: string, id: string) => metricValue(evaluateAt({ securities: [sec], market: null }, date), 1, id);

describe('TTM with a derived fourth quarter', () => {
  it('derives Q4 as the fiscal year minus Q1–Q3 once the 10-K is known', () => {
    expect(at('2023-03-01', 'revenue_q')).toBe(150);
    expect(at('2023-03-01', 'revenue_ttm')).toBe(480);
    expect(at('2023-03-01', 'revenue_fy')).toBe(480);
  });

  it('sums the last four quarters known as of the date', () => {
    // After Q1 2024: Q2 2023 + Q3 2023 + Q4 2023 (derived) + Q1 2024.
    expect(at('2024-06-03', 'revenue_ttm')).toBe(140 + 150 + 180 + 160);
    expect(at('2024-06-03', 'revenue_q')).toBe(160);
  });

  it('uses a filing only from the day after it was filed', () => {
    // The 2023 10-K was filed on 2024-02-20: unknown that day, known the next.
    expect(at('2024-02-20', 'revenue_ttm')).toBe(150 + 130 + 140 + 150); // Q4 2022 … Q3 2023
    expect(at('2024-02-20', 'revenue_q')).toBe(150);
    expect(at('2024-02-21', 'revenue_ttm')).toBe(600);
  });

  it('computes growth from TTM and quarters', () => {
    const ttmNow = 140 + 150 + 180 + 160;
    const ttmYearAgo = 110 + 120 + 150 + 130;
    expect(at('2024-06-03', 'revenue_growth_yoy')).toBeCloseTo(ttmNow / ttmYearAgo - 1, 12);
    expect(at('2024-06-03', 'revenue_growth_qoq')).toBeCloseTo(160 / 180 - 1, 12);
    expect(at('2024-06-03', 'revenue_growth_yoy_q')).toBeCloseTo(160 / 130 - 1, 12);
    // Not enough history for three years.
    expect(at('2024-06-03', 'revenue_cagr_3y')).toBeNull();
  });

  it('gives n/a, never 0, for concepts that were never filed', () => {
    expect(at('2024-06-03', 'net_income_ttm')).toBeNull();
    expect(at('2024-06-03', 'net_margin')).toBeNull();
    expect(at('2024-06-03', 'pe_ttm')).toBeNull();
    expect(at('2024-06-03', 'total_assets')).toBeNull();
  });

  it('gives nothing before the first filing is known and treats old filings as stale', () => {
    expect(at('2022-05-10', 'revenue_q')).toBeNull();
    expect(at('2022-05-11', 'revenue_q')).toBe(100);
    const late = fixtureSecurity({
      start: '2021-06-01',
      days: 1200,
      close: () => 50,
      facts,
    });
    const snap = evaluateAt({ securities: [late], market: null }, '2025-12-01');
    expect(snap.day).toBe(toEpochDay('2025-12-01'));
    expect(metricValue(snap, 1, 'revenue_q')).toBeNull(); // Q1 2024 ended > 550 days earlier
    expect(metricValue(snap, 1, 'price')).toBe(50);
  });
});
