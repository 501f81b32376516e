import { describe, expect, it } from 'vitest';
import { fromEpochDay } from '../../dates';
import { fixtureSecurity } from '../testing/fixtures';
import { evaluateAt } from './evaluate';
import { metricValue } from './snapshot';

// Price 50 for five years; quarterly dividends rising each calendar year.
const dividends: { exDate: string; amount: number }[] = [];
const perShare: Record<number, number> = {
  2019: 0.2,
  2020: 0.25,
  2021: 0.25,
  2022: 0.3,
  2023: 0.35,
  2024: 0.4,
};
for (const [year, amount] of Object.entries(perShare)) {
  for (const md of ['02-14', '05-14', '08-14', '11-14']) dividends.push({ exDate: `${year}-${md}`, amount });
}

describe('dividends', () => {
  const sec = fixtureSecurity({
    start: '2019-01-01',
    days: 1600,
    close: () => 50,
    dividends,
  });
  const at = (date: string, id: string) => metricValue(evaluateAt({ securities: [sec], market: null }, date), 1, id);

  it('sums the last 365 days and divides by price', () => {
    expect(at('2024-06-03', 'dividend_ttm')).toBeCloseTo(0.35 * 2 + 0.4 * 2, 12);
    expect(at('2024-06-03', 'dividend_yield')).toBeCloseTo((0.35 * 2 + 0.4 * 2) / 50, 12);
    expect(at('2024-06-03', 'last_dividend')).toBe(0.4);
    expect(at('2024-06-03', 'last_dividend_date')).toBe(sec.dividends.exDate[21]);
  });

  it('counts growth and paying streaks over complete calendar years', () => {
    // 2023 > 2022 > 2021, but 2021 = 2020: the growth streak is two years; paying since 2019: five.
    expect(at('2024-06-03', 'dividend_growth_streak')).toBe(2);
    expect(at('2024-06-03', 'dividend_paying_streak')).toBe(5);
    expect(at('2024-06-03', 'dividend_growth_1y')).toBeCloseTo((0.35 * 2 + 0.4 * 2) / (0.3 * 2 + 0.35 * 2) - 1, 12);
  });

  it('ends the paying streak at a year without dividends, and both streaks at the first year paid', () => {
    // Paid 2019–2020, nothing in 2021, then 2022–2024 (each more than the year before).
    const gap = dividends.filter((d) => !d.exDate.startsWith('2021'));
    const sec2 = fixtureSecurity({ start: '2019-01-01', days: 1600, close: () => 50, dividends: gap });
    const on = (date: string, id: string) => metricValue(evaluateAt({ securities: [sec2], market: null }, date), 1, id);
    expect(on('2024-06-03', 'dividend_paying_streak')).toBe(2);
    expect(on('2024-06-03', 'dividend_growth_streak')).toBe(1);
    // Before 2021 ended: 2019 and 2020 paid, 2020 more than 2019.
    expect(on('2021-06-01', 'dividend_paying_streak')).toBe(2);
    expect(on('2021-06-01', 'dividend_growth_streak')).toBe(1);
    // In the first year paid, no complete year before it.
    expect(on('2019-06-03', 'dividend_paying_streak')).toBe(0);
    expect(on('2019-06-03', 'dividend_growth_streak')).toBe(0);
  });

  it('restates dividends paid before a split', () => {
    // 2:1 split on bar 1300 (mid 2023): dividends before it were per old share.
    const split = fixtureSecurity({
      start: '2019-01-01',
      days: 1600,
      close: () => 25,
      closeUnadj: (k, c) => (k < 1300 ? 2 * c : c),
      dividends,
    });
    const snap = evaluateAt({ securities: [split], market: null }, fromEpochDay(split.dates[1599]));
    const day = split.dates[1599];
    const splitDay = split.dates[1300];
    let expected = 0;
    for (let k = 0; k < split.dividends.exDate.length; k++) {
      const ex = split.dividends.exDate[k];
      if (ex > day - 365 && ex <= day) expected += ex < splitDay ? split.dividends.amount[k] / 2 : split.dividends.amount[k];
    }
    expect(metricValue(snap, 1, 'dividend_ttm')).toBeCloseTo(expected, 12);
  });

  it('gives yield 0 to a non-payer with a price and n/a streaks', () => {
    const none = fixtureSecurity({
      start: '2019-01-01',
      days: 1600,
      close: () => 50,
    });
    const snap = evaluateAt({ securities: [none], market: null }, '2024-06-03');
    expect(metricValue(snap, 1, 'dividend_yield')).toBe(0);
    expect(metricValue(snap, 1, 'dividend_growth_streak')).toBeNull();
    expect(metricValue(snap, 1, 'dividend_growth_1y')).toBeNull();
  });
});
