import { describe, expect, it } from 'vitest';
import { toEpochDay } from '../dates';
import { NOT_AVAILABLE } from '../http/numbers';
import { compact, formatByFormat } from './format';

describe('formatByFormat', () => {
  it('shows n/a for missing values whatever the format', () => {
    for (const f of [
      'currency',
      'large_currency',
      'percent',
      'ratio',
      'number',
      'integer',
      'shares',
      'date',
      'days',
      'years',
      'score',
    ] as const) {
      expect(formatByFormat(f, null)).toBe(NOT_AVAILABLE);
      expect(formatByFormat(f, undefined)).toBe(NOT_AVAILABLE);
      expect(formatByFormat(f, Number.NaN)).toBe(NOT_AVAILABLE);
    }
  });

  it('formats percentages without floating-point noise', () => {
    expect(formatByFormat('percent', 0.07)).toBe('7.00%');
    expect(formatByFormat('percent', 0.1 + 0.2)).toBe('30.00%');
    expect(formatByFormat('percent', -0.00001)).toBe('0.00%');
    expect(formatByFormat('percent', 1.2345)).toBe('123.45%');
  });

  it('formats currency and large currency', () => {
    expect(formatByFormat('currency', 12.345)).toBe('$12.35');
    expect(formatByFormat('currency', -3.2)).toBe('-$3.20');
    expect(formatByFormat('currency', -0.001)).toBe('$0.00');
    expect(formatByFormat('large_currency', 1_234_567_890)).toBe('$1.23B');
    expect(formatByFormat('large_currency', -45_600_000)).toBe('-$45.60M');
    expect(formatByFormat('large_currency', 999_999_999)).toBe('$1.00B');
    expect(formatByFormat('large_currency', 512)).toBe('$512.00');
  });

  it('gives the same text for a value asked again (the kept texts), for zero and minus zero, past the bound', () => {
    const values = [0, -0, -0.001, 0.004, 1.005, 2.675, 1234.5, -1234.565, 1e15, Number.MIN_VALUE];
    const intl = (v: number) => {
      const text = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Math.abs(v));
      return v < 0 && text !== '0.00' ? `-$${text}` : `$${text}`;
    };
    for (let round = 0; round < 2; round++) for (const v of values) expect(formatByFormat('currency', v)).toBe(intl(v));
    // More values than one digits setting keeps: the first ones again afterwards.
    for (let i = 0; i < 25_000; i++) formatByFormat('currency', i / 100);
    for (const v of values) expect(formatByFormat('currency', v)).toBe(intl(v));
    expect(formatByFormat('currency', 123.45)).toBe('$123.45');
    expect(formatByFormat('ratio', 123.45)).toBe('123.45');
  });

  it('formats ratios, integers, shares and dates', () => {
    expect(formatByFormat('ratio', 14.996)).toBe('15.00');
    expect(formatByFormat('integer', 7)).toBe('7');
    expect(formatByFormat('shares', 1_500_000)).toBe('1.50M');
    expect(compact(999.999)).toBe('1.00K');
    expect(formatByFormat('date', toEpochDay('2024-03-31'))).toBe('2024-03-31');
    expect(formatByFormat('years', 12)).toBe('12 y');
  });
});
