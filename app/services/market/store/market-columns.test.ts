import { describe, expect, it } from 'vitest';
import { priceColumns, pricesOfSecurities, type SecurityPrices } from './market-columns';
import { toEpochDay } from '../../dates';

// Prices built as columns (the demo generator's) must become the same table columns as the same
// prices given as rows, and be refused for what rows would be refused for.

const prices = (permaticker: number, days: string[], close: number[], extra: Partial<SecurityPrices> = {}): SecurityPrices => ({
  permaticker,
  day: Int32Array.from(days, toEpochDay),
  open: Float64Array.from(close, (c) => c - 0.5),
  high: Float64Array.from(close, (c) => c + 1),
  low: Float64Array.from(close, (c) => c - 1),
  close: Float64Array.from(close),
  volume: Float64Array.from(close, () => 1000),
  closeUnadj: Float64Array.from(close, (c) => c * 2),
  tri: Float64Array.from(close, () => Number.NaN),
  ...extra,
});

describe('prices of securities as columns', () => {
  it('gives the columns and ranges the same rows give', () => {
    const a = prices(7, ['2024-01-02', '2024-01-03', '2024-01-05'], [10, 11, 12]);
    const b = prices(3, ['2023-12-29'], [50]);
    const rows = [a, b].flatMap((p) =>
      Array.from(p.day, (d, i) => ({
        permaticker: p.permaticker,
        date: new Date(d * 86_400_000).toISOString().slice(0, 10),
        open: p.open[i],
        high: p.high[i],
        low: p.low[i],
        close: p.close[i],
        volume: p.volume[i],
        closeUnadj: p.closeUnadj[i],
        tri: null,
      })),
    );
    expect(pricesOfSecurities([a, b])).toEqual(priceColumns(rows));
    expect(pricesOfSecurities([a, b]).ranges).toEqual({ perm: [7, 3], first: [a.day[0], b.day[0]], last: [a.day[2], b.day[0]] });
  });

  it('refuses a security given twice, days out of order, a missing close, an infinite value or columns of other lengths', () => {
    const ok = prices(1, ['2024-01-02', '2024-01-03'], [10, 11]);
    expect(() => pricesOfSecurities([ok, prices(1, ['2024-01-04'], [12])])).toThrow('prices: permaticker 1 is given twice');
    expect(() => pricesOfSecurities([prices(2, ['2024-01-03', '2024-01-03'], [10, 11])])).toThrow(
      'prices of permaticker 2: day 2 does not follow day 1',
    );
    expect(() => pricesOfSecurities([prices(2, ['2024-01-03', '2024-01-02'], [10, 11])])).toThrow('day 2 does not follow day 1');
    expect(() => pricesOfSecurities([prices(3, ['2024-01-02'], [Number.NaN])])).toThrow(
      'prices of permaticker 3 row 1: close must be a finite number, got NaN',
    );
    expect(() => pricesOfSecurities([prices(4, ['2024-01-02'], [10], { volume: Float64Array.of(Infinity) })])).toThrow(
      'prices of permaticker 4 row 1: volume must be a finite number, got Infinity',
    );
    expect(() => pricesOfSecurities([prices(5, ['2024-01-02'], [10], { tri: new Float64Array(2) })])).toThrow(
      'prices of permaticker 5: tri has 2 values for 1 days',
    );
    expect(() => pricesOfSecurities([prices(1.5, ['2024-01-02'], [10])])).toThrow('prices: permaticker must be an integer, got 1.5');
  });
});
