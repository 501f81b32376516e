import { describe, expect, it } from 'vitest';
import {
  decimalsAfterFactor,
  formatNumberForExport,
  jsonTextWithoutFloatNoise,
  jsonWithoutFloatNoise,
  reportedDecimals,
  roundForExport,
  roundToDecimals,
  withoutFloatNoise,
} from './numbers';
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

  it('rounds every number exactly as its 12-significant-digit decimal text does', () => {
    // Integers are kept as they are (exact below 2^53); the rest rounds as their decimal text.
    const viaText = (v: number) => {
      if (Number.isInteger(v)) return v;
      const r = Number(v.toPrecision(12));
      return Object.is(r, -0) ? 0 : r;
    };
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) + 0.5) / 2 ** 31;
    const values: number[] = [
      0.1 + 0.2,
      1 / 3,
      -2 / 3,
      9.9999999999995,
      0.99999999999995,
      1e-11,
      9.99999999999e11,
      123.4567890125,
      -0.0000123456789015,
    ];
    for (let i = 0; i < 200_000; i++) {
      const magnitude = 10 ** Math.floor(random() * 30 - 14);
      const v = (random() - 0.5) * magnitude;
      values.push(v);
      // Exact halves at the 12th digit, and their neighbours one unit in the last place away.
      const half = (Math.floor(random() * 1e12) + 0.5) / 10 ** Math.floor(random() * 12);
      values.push(half, half + half * Number.EPSILON, half - half * Number.EPSILON);
    }
    for (const v of values) if (withoutFloatNoise(v) !== viaText(v)) expect([v, withoutFloatNoise(v)]).toEqual([v, viaText(v)]);
  });

  it('CSV cells and JSON answers use the same rounding', () => {
    expect(formatNumberForExport(3874225282.6800003)).toBe('3874225282.68');
    expect(formatNumberForExport(Number.NaN)).toBe('n/a');
    expect(JSON.stringify({ a: [1.8400000000000003, null], b: { c: 0.05300000000000002 } }, jsonWithoutFloatNoise)).toBe(
      '{"a":[1.84,null],"b":{"c":0.053}}',
    );
  });

  it('the fast JSON writer writes what JSON.stringify with the replacer writes, whatever the value', () => {
    class Point {
      constructor(
        public x = 0.1 + 0.2,
        public label = 'p',
      ) {}
      get ignored() {
        return 1;
      }
    }
    const lazy = Object.defineProperty({}, 'v', { enumerable: true, get: () => 1.8400000000000003 });
    const values: unknown[] = [
      0.30000000000000004,
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      'text "quoted" \u2028 é',
      null,
      undefined,
      true,
      [1.8400000000000003, undefined, () => 1, Symbol('s'), null, [0.1 + 0.2, [-1e-300, 1e300, 5e-324]]],
      { a: undefined, b: () => 1, c: 0.1 + 0.7, d: { e: [new Date('2024-01-02T03:04:05.000Z')] } },
      { toJSON: (key: string) => ({ key, n: 0.1 + 0.2 }) },
      // toJSON is called once: a Date it returns is written as an object, not again as its text.
      { toJSON: () => new Date(0) },
      new Number(0.1 + 0.2),
      new String('boxed'),
      new Boolean(false),
      new Float64Array([0.1 + 0.2, Number.NaN]),
      Buffer.from('ab'),
      new Map([[1, 2]]),
      new Point(),
      lazy,
      { [Symbol('k')]: 1, 2: 0.1 + 0.2, z: 1, a: 2 },
      Object.assign([0.1 + 0.2], { extra: 1 }),
      { nested: { deeper: { deepest: [{ v: 1234567.8900000001 }] } } },
    ];
    for (const v of [...values, values]) expect(jsonTextWithoutFloatNoise(v)).toBe(JSON.stringify(v, jsonWithoutFloatNoise));
    expect(() => jsonTextWithoutFloatNoise({ n: 1n })).toThrow(TypeError);
  });

  it('the JSON API writes no float noise', async () => {
    const text = await jsonResponse({ eps: 0.05300000000000002, pe: 15.070000000000002 }).text();
    expect(text).toBe('{"eps":0.053,"pe":15.07}');
  });
});

describe('precision as reported', () => {
  it("reads a value's decimals back from the value: places of a per-share value, trailing zeros of an amount", () => {
    expect(reportedDecimals(6.31)).toBe(2);
    expect(reportedDecimals(0.082)).toBe(3);
    expect(reportedDecimals(-0.25)).toBe(2);
    expect(reportedDecimals(394_328_000_000)).toBe(-6);
    expect(reportedDecimals(60_922_000_000)).toBe(-6);
    expect(reportedDecimals(15_943_425_000)).toBe(-3);
    expect(reportedDecimals(17)).toBe(0);
    expect(reportedDecimals(1e-7)).toBe(7);
    expect(reportedDecimals(1.8400000000000003)).toBe(2); // noise is not precision
    for (const hostile of [0, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(reportedDecimals(hostile)).toBe(0);
    expect(reportedDecimals(1e300)).toBeGreaterThanOrEqual(-15); // bounded
  });

  it('a split adjustment adds the digits the ratio moves; a whole multiple adds none', () => {
    expect(decimalsAfterFactor(2, 1 / 28)).toBe(4);
    expect(decimalsAfterFactor(2, 1 / 4)).toBe(3);
    expect(decimalsAfterFactor(2, 1 / 10)).toBe(3);
    expect(decimalsAfterFactor(2, 1 / 100)).toBe(4);
    expect(decimalsAfterFactor(-6, 7)).toBe(-6);
    expect(decimalsAfterFactor(2, 1.5)).toBe(3);
    expect(decimalsAfterFactor(2, 1)).toBe(2);
    for (const hostile of [0, -1, Number.NaN]) expect(decimalsAfterFactor(2, hostile)).toBe(2);
  });

  it('rounds on the decimal text, to places or to thousands and millions, at any magnitude', () => {
    expect(roundToDecimals(1.005, 2)).toBe(1.01);
    expect(roundToDecimals(-1.005, 2)).toBe(-1.01);
    expect(roundToDecimals(0.17 - 0.117, 2)).toBe(0.05);
    expect(roundToDecimals(44.15 / 28, 4)).toBe(1.5768);
    expect(roundToDecimals(394_328_411_000, -6)).toBe(394_328_000_000);
    expect(roundToDecimals(3_874_225_282.6800003, -3)).toBe(3_874_225_000);
    expect(roundToDecimals(3.9e12 + 1234, -6)).toBe(3_900_000_000_000);
    expect(roundToDecimals(3_912_345_678_901, -6)).toBe(3_912_346_000_000); // above 1e12: no exponent text to trip on
    expect(roundToDecimals(1.23456789e15, 2)).toBe(1.23456789e15);
    expect(roundToDecimals(1e300, 2)).toBe(1e300);
    expect(roundToDecimals(-0.001, 2)).toBe(0);
    expect(Object.is(roundToDecimals(-0.001, 2), -0)).toBe(false);
    expect(roundToDecimals(Number.NaN, 2)).toBeNaN();
    expect(roundToDecimals(Number.POSITIVE_INFINITY, 2)).toBe(Number.POSITIVE_INFINITY);
    expect(roundToDecimals(1.25, 1.5)).toBe(1.25); // a non-integer place count is no rounding
    expect(roundForExport(1.23e15, 2)).toBe(1.23e15); // was NaN: exponent notation on the text
  });
});
