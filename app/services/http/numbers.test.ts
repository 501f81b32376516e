import { describe, expect, it } from 'vitest';
import { formatNumberForExport, jsonWithoutFloatNoise, withoutFloatNoise } from './numbers';
import { jsonResponse } from './api.server';

describe('numbers without float noise', () => {
  it('drops binary noise and keeps every real digit', () => {
    expect(withoutFloatNoise(1.8400000000000003)).toBe(1.84);
    expect(withoutFloatNoise(1.8599999999999994)).toBe(1.86);
    expect(withoutFloatNoise(0.9900000000000007)).toBe(0.99);
    expect(withoutFloatNoise(0.1 + 0.2)).toBe(0.3);
    expect(withoutFloatNoise(3874225282.6800003)).toBe(3874225282.68);
    expect(withoutFloatNoise(1 / 3)).toBe(0.333333333333);
    expect(withoutFloatNoise(123456789012345)).toBe(123456789012345);
    expect(Object.is(withoutFloatNoise(-0), 0)).toBe(true);
    expect(withoutFloatNoise(394_328_000_000)).toBe(394_328_000_000);
  });

  it('CSV cells and JSON answers use the same rounding', () => {
    expect(formatNumberForExport(3874225282.6800003)).toBe('3874225282.68');
    expect(formatNumberForExport(Number.NaN)).toBe('n/a');
    expect(JSON.stringify({ a: [1.8400000000000003, null], b: { c: 0.05300000000000002 } }, jsonWithoutFloatNoise)).toBe(
      '{"a":[1.84,null],"b":{"c":0.053}}',
    );
  });

  it('the JSON API writes no float noise', async () => {
    const text = await jsonResponse({ eps: 0.05300000000000002, pe: 15.070000000000002 }).text();
    expect(text).toBe('{"eps":0.053,"pe":15.07}');
  });
});
