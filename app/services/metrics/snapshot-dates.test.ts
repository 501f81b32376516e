import { describe, expect, it } from 'vitest';
import { fromEpochDay, toEpochDay, weekday } from '../dates';
import { snapshotDays } from './snapshot-dates';
import { tradingDays } from './testing/synthetic-universe';

describe('snapshot days', () => {
  const days = tradingDays(toEpochDay('2024-01-01'), toEpochDay('2024-03-13'));

  it('picks the last trading day of each month and the last day of data', () => {
    const picked = snapshotDays(days, false);
    expect(picked.map((d) => fromEpochDay(d.day))).toEqual(['2024-01-31', '2024-02-29', '2024-03-13']);
    expect(picked.map((d) => d.latest)).toEqual([false, false, true]);
    expect(picked.every((d) => !d.weekly)).toBe(true);
  });

  it('adds the last trading day of every week when asked', () => {
    const weeks = snapshotDays(days, true).filter((d) => d.weekly);
    expect(weeks.length).toBe(11); // ten full weeks and the partial last one
    expect(weeks.slice(0, -1).every((d) => weekday(fromEpochDay(d.day)) === 5)).toBe(true);
    expect(fromEpochDay(weeks[weeks.length - 1].day)).toBe('2024-03-13');
  });
});
