import { describe, expect, it } from 'vitest';
import { addDays, addMonths, daysBetween, fromEpochDay, isIsoDate, toEpochDay, todayIn, weekday } from './dates';

describe('calendar days', () => {
  it('round-trips day numbers across leap years and DST changes', () => {
    expect(toEpochDay('1970-01-01')).toBe(0);
    expect(fromEpochDay(toEpochDay('2024-02-29'))).toBe('2024-02-29');
    expect(addDays('2024-03-09', 2)).toBe('2024-03-11');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
    expect(daysBetween('2020-01-01', '2021-01-01')).toBe(366);
  });
  it('names every day as Date does, from year 0 to 9999 and beyond', () => {
    const viaDate = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
    for (let day = -720_000; day <= 2_933_000; day += day > -40_000 && day < 80_000 ? 1 : 17)
      if (fromEpochDay(day) !== viaDate(day)) expect(fromEpochDay(day)).toBe(viaDate(day));
    for (const day of [-800_000, 3_000_000, 0.5, -0.5, 19_000.25]) expect(fromEpochDay(day)).toBe(viaDate(day));
    expect(fromEpochDay(0)).toBe('1970-01-01');
    expect(fromEpochDay(-1)).toBe('1969-12-31');
  });
  it('rejects impossible dates', () => {
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2024-2-9')).toBe(false);
    expect(() => toEpochDay('yesterday')).toThrow(RangeError);
  });
  it('knows weekdays and clamps month ends', () => {
    expect(weekday('2026-11-22')).toBe(0);
    expect(weekday('2026-11-23')).toBe(1);
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2024-12-15', -12)).toBe('2023-12-15');
  });
  it('reads today on the exchange clock, not the machine clock', () => {
    // 03:00 UTC is still the previous evening in New York.
    expect(todayIn('America/New_York', new Date('2026-11-22T03:00:00Z'))).toBe('2026-11-21');
  });
});
