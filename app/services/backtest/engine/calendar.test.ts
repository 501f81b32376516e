import { describe, expect, it } from 'vitest';
import { civilFromEpochDay, toEpochDay } from '../../dates';
import { monthOrdinal, periodKey, signalIndices } from './calendar';

// Month keys from the kept month against the civil date of every day, in order and out of order.

const civilOrdinal = (day: number) => {
  const c = civilFromEpochDay(day);
  return c.year * 12 + c.month - 1;
};

describe('month ordinals', () => {
  it('equal the civil year and month of every day from 1899 to 2101, read in order', () => {
    for (let d = toEpochDay('1899-01-01'); d <= toEpochDay('2101-12-31'); d++) {
      if (monthOrdinal(d) !== civilOrdinal(d)) expect([d, monthOrdinal(d)]).toEqual([d, civilOrdinal(d)]);
    }
  });

  it('equal them read in any order, across month ends, leap days and century years', () => {
    const edges = [
      '1900-02-28',
      '1900-03-01',
      '2000-02-29',
      '2000-03-01',
      '2023-12-31',
      '2024-01-01',
      '2024-02-29',
      '1969-12-31',
      '1970-01-01',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const days = [...edges.map(toEpochDay), ...Array.from({ length: 20_000 }, () => toEpochDay('1890-01-01') + (next() % 80_000))];
    for (const d of days) {
      // Each day twice, and its neighbours: the kept month is entered from either side.
      for (const x of [d, d - 1, d + 1, d])
        if (monthOrdinal(x) !== civilOrdinal(x)) expect([x, monthOrdinal(x)]).toEqual([x, civilOrdinal(x)]);
    }
  });

  it('give the periods signal days close', () => {
    const days = Int32Array.from(
      ['2024-01-30', '2024-01-31', '2024-02-01', '2024-02-29', '2024-03-01', '2024-06-28', '2024-07-01', '2025-01-02'],
      toEpochDay,
    );
    expect(Array.from(signalIndices(days, 'monthly'))).toEqual([1, 3, 4, 5, 6]);
    expect(Array.from(signalIndices(days, 'quarterly'))).toEqual([4, 5, 6]);
    expect(Array.from(signalIndices(days, 'semiannual'))).toEqual([5, 6]);
    expect(Array.from(signalIndices(days, 'annual'))).toEqual([6]);
    expect(periodKey(toEpochDay('2024-12-31'), 'quarterly')).toBe(2024 * 4 + 3);
    expect(periodKey(toEpochDay('1899-05-31'), 'semiannual')).toBe(1899 * 2);
  });
});
