import { describe, expect, it } from 'vitest';
import { toEpochDay } from '../../dates';
import { fixtureSecurity, instant, quarter } from '../testing/fixtures';
import { evaluateAt } from './evaluate';
import { metricSeriesOf } from './series';
import { metricValue } from './snapshot';

// Q1 2024 revenue is first filed as 100 on 2024-05-01 and restated to 90 on 2024-08-01.
const facts = [
  quarter('revenue', 2023, 2, 80, '2023-08-01', 'q2'),
  quarter('revenue', 2023, 3, 80, '2023-11-01', 'q3'),
  quarter('revenue', 2023, 4, 80, '2024-02-01', 'q4'),
  quarter('revenue', 2024, 1, 100, '2024-05-01', 'orig'),
  quarter('revenue', 2024, 1, 90, '2024-08-01', 'restated'),
  instant('shares_outstanding', '2024-03-31', 10, '2024-05-01', 'orig'),
];
const sec = fixtureSecurity({
  start: '2023-01-02',
  days: 500,
  close: () => 10,
  facts,
});
const at = (date: string, id: string) => metricValue(evaluateAt({ securities: [sec], market: null }, date), 1, id);

describe('restatements', () => {
  it('change the value only from the restatement’s own filed date + 1', () => {
    expect(at('2024-05-02', 'revenue_q')).toBe(100);
    expect(at('2024-08-01', 'revenue_q')).toBe(100);
    expect(at('2024-08-01', 'revenue_ttm')).toBe(340);
    expect(at('2024-08-02', 'revenue_q')).toBe(90);
    expect(at('2024-08-02', 'revenue_ttm')).toBe(330);
    expect(at('2024-08-02', 'ps_ttm')).toBe(100 / 330);
  });

  const opts = {
    fromDay: toEpochDay('2024-04-01'),
    toDay: toEpochDay('2024-09-30'),
    asOfDay: toEpochDay('2024-12-31'),
  };

  it('shows the change on the restatement date in the point-in-time series, with its accession', () => {
    const s = metricSeriesOf(sec, null, 'revenue_q', {
      ...opts,
      mode: 'point_in_time',
    });
    const values = s.map((p) => [p.date, p.value, p.accession]);
    expect(values).toContainEqual(['2024-05-02', 100, 'orig']);
    expect(values).toContainEqual(['2024-08-02', 90, 'restated']);
    expect(s.find((p) => p.value === 90)!.filed).toBe('2024-08-01');
  });

  it('keeps the first report in first_reported mode and the restated value from the first filing in latest mode', () => {
    const first = metricSeriesOf(sec, null, 'revenue_q', {
      ...opts,
      mode: 'first_reported',
    });
    expect(first.filter((p) => p.value !== null && p.date >= '2024-05-02').every((p) => p.value === 100)).toBe(true);
    const latest = metricSeriesOf(sec, null, 'revenue_q', {
      ...opts,
      mode: 'latest',
    });
    const fromMay = latest.filter((p) => p.date >= '2024-05-02');
    expect(fromMay[0]).toEqual({
      date: '2024-05-02',
      value: 90,
      filed: '2024-08-01',
      accession: 'restated',
    });
    expect(fromMay.every((p) => p.value === 90)).toBe(true);
  });

  it('knows nothing filed on or after as_of', () => {
    const s = metricSeriesOf(sec, null, 'revenue_q', {
      ...opts,
      asOfDay: toEpochDay('2024-08-01'),
      mode: 'latest',
    });
    expect(s.some((p) => p.value === 90)).toBe(false);
    expect(s[s.length - 1].date < '2024-08-01').toBe(true);
  });
});
