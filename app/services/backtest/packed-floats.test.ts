import { describe, expect, it } from 'vitest';
import type { ColumnSet } from '../market/store/column-file';
import { packFloats, unpackFloats, type PackOptions } from './packed-floats';

// Stored-result number columns in their smallest exact form: every double reads back bit for bit.

function roundTrip(values: number[], opts: PackOptions = {}, others: ColumnSet = {}) {
  const columns: ColumnSet = { ...others };
  const packing = packFloats(columns, 'x', Float64Array.from(values), opts);
  const back = unpackFloats(columns, 'x', packing, values.length, (name) => others[name]);
  return { packing, back: Array.from(back), columns };
}

const sameBits = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

describe('packed number columns', () => {
  it('stores prices as whole thousandths, the odd value as an exception, exactly', () => {
    const values = [43.76, 0.001, 119.475, 1e6, -2.5, 0, ...Array.from({ length: 40 }, (_, i) => i / 100)];
    values.push(0.1 + 0.2, -0, Number.NaN); // not thousandths: exceptions
    const { packing, back, columns } = roundTrip(values);
    expect(packing.kind).toBe('milli');
    expect(columns.x).toBeInstanceOf(Int32Array);
    expect(Array.from(columns['x.xi'])).toEqual([values.length - 3, values.length - 2, values.length - 1]);
    expect(sameBits(back, values)).toBe(true);
  });

  it('keeps doubles that are not thousandths as they are', () => {
    const values = Array.from({ length: 50 }, (_, i) => Math.sqrt(i + 2));
    const { packing, back } = roundTrip(values);
    expect(packing.kind).toBe('raw');
    expect(sameBits(back, values)).toBe(true);
  });

  it('stores a whole multiple of another column as the change of its company’s factor', () => {
    const perm = Int32Array.from({ length: 60 }, (_, i) => 900000 + (i % 3));
    const price = Float64Array.from({ length: 60 }, (_, i) => 10 + i * 0.37);
    const shares = [13741488375, 1982763534, 8034893165];
    const caps = Array.from(price, (p, i) => shares[i % 3] * p);
    caps[7] = Number.POSITIVE_INFINITY;
    caps[8] = 0.5; // not a whole multiple
    const others = { price, perm };
    const { packing, back, columns } = roundTrip(
      caps,
      { factor: { name: 'price', values: price, keys: { name: 'perm', values: perm } } },
      others,
    );
    expect(packing).toEqual({ kind: 'times', factor: 'price', keys: 'perm' });
    // After each company's first row the change is 0 (the share count does not change).
    expect(Array.from(columns.x).filter((d) => d !== 0).length).toBe(3);
    expect(sameBits(back, caps)).toBe(true);
  });

  it('stores nothing for an exact quotient of two columns', () => {
    const value = Float64Array.from({ length: 30 }, (_, i) => 13.896406349977592 * (i + 1));
    const price = Float64Array.from({ length: 30 }, (_, i) => 34.01 + i);
    const shares = Array.from(value, (v, i) => v / price[i]);
    shares[4] = 1; // not the quotient
    const others = { value, price };
    const { packing, back, columns } = roundTrip(
      shares,
      { quotient: { numerator: { name: 'value', values: value }, denominator: { name: 'price', values: price } } },
      others,
    );
    expect(packing.kind).toBe('quotient');
    expect(columns.x).toBeUndefined();
    expect(sameBits(back, shares)).toBe(true);
  });
});
