import { describe, expect, it } from 'vitest';
import { decodeSnapshotValues, encodeSnapshotValues, float32Decimal, quantizeInPlace, snapshotValue } from './snapshot-values';

const roundTrip = (values: number[]): Float64Array => {
  const out = new Float64Array(values.length);
  decodeSnapshotValues(encodeSnapshotValues(Float64Array.from(values)), values.length, out, 0);
  return out;
};

describe('snapshot values (Float32, read back as decimals)', () => {
  it('stores four bytes a value', () => {
    expect(encodeSnapshotValues(new Float64Array(10)).byteLength).toBe(40);
  });

  it('reads back the decimals the engine computed, without Float32 noise', () => {
    expect(Math.fround(12.34)).not.toBe(12.34);
    expect(Array.from(roundTrip([12.34, -0.0725, 1500000000, 0.1, 3.14159, 1e-12, 987654.3]))).toEqual([
      12.34, -0.0725, 1500000000, 0.1, 3.14159, 1e-12, 987654.3,
    ]);
    expect(JSON.stringify(Array.from(roundTrip([12.34, 0.3])))).toBe('[12.34,0.3]');
  });

  it('keeps full-precision values to 7 significant digits', () => {
    expect(snapshotValue(Math.PI)).toBe(3.141593);
    expect(snapshotValue(-123456.789)).toBe(-123456.8);
    expect(snapshotValue(2 / 3)).toBe(0.6666667);
    expect(snapshotValue(123456789012)).toBe(123456800000);
    for (const x of [Math.E * 1e-20, 7.77e15, 1 / 7, -1e30 / 3]) {
      const v = snapshotValue(x);
      expect(Math.abs(v - x) / Math.abs(x)).toBeLessThan(6e-7);
      expect(snapshotValue(v)).toBe(v);
    }
  });

  it('every decimal of up to six significant digits comes back exactly', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20000; i++) {
      const digits = 1 + (i % 6);
      const v = (i % 2 ? -1 : 1) * Number(`${Math.floor(next() * 10 ** digits)}e${(i % 41) - 20}`);
      expect(snapshotValue(v)).toBe(v);
    }
  });

  it('keeps n/a, zero and infinities', () => {
    const out = roundTrip([Number.NaN, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
    expect(Number.isNaN(out[0])).toBe(true);
    expect(Array.from(out.subarray(1))).toEqual([0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
    expect(float32Decimal(Number.NaN)).toBeNaN();
  });

  it('reads the Float64 blobs of older stores as the same values', () => {
    const values = Float64Array.from([12.34, Math.PI, Number.NaN, -2 / 3]);
    const f64 = new Uint8Array(values.buffer.slice(0));
    const old = new Float64Array(4);
    decodeSnapshotValues(f64, 4, old, 0);
    const now = roundTrip(Array.from(values));
    expect(Array.from(old)).toEqual(Array.from(now));
    expect(Array.from(quantizeInPlace(Float64Array.from(values)))).toEqual(Array.from(now));
  });

  it('decodes unaligned blob bytes into a column at an offset', () => {
    const bytes = encodeSnapshotValues(Float64Array.from([1.5, 2.25]));
    const unaligned = new Uint8Array(bytes.byteLength + 1).subarray(1);
    unaligned.set(bytes);
    const out = new Float64Array(5).fill(-1);
    decodeSnapshotValues(unaligned, 2, out, 2);
    expect(Array.from(out)).toEqual([-1, -1, 1.5, 2.25, -1]);
  });

  it('refuses a blob whose length matches neither format', () => {
    expect(() => decodeSnapshotValues(new Uint8Array(12), 2, new Float64Array(2), 0)).toThrow(/12 bytes for 2 rows/);
  });
});
