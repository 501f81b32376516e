import { describe, expect, it } from 'vitest';
import { decodeSnapshotValues, encodeSnapshotValues } from '../../metrics/snapshot-values';
import { keepComparing } from './compare';

// Stored snapshot values are Float32 (12.34 is stored as 12.340000152587891) read back as the
// decimal they were: a rule on the boundary treats a stored 12.34 as 12.34.

const stored = (values: number[]): Float64Array => {
  const out = new Float64Array(values.length);
  decodeSnapshotValues(encodeSnapshotValues(Float64Array.from(values)), values.length, out, 0);
  return out;
};

describe('rules on stored snapshot values', () => {
  it('compare the decimal stored, not its Float32', () => {
    expect(Math.fround(12.34)).toBeGreaterThan(12.34);
    expect(Math.fround(0.3)).toBeGreaterThan(0.3);
    const col = stored([12.34, 12.33, 12.35, 0.3]);
    const all = Int32Array.from([0, 1, 2, 3]);
    const keep = (op: '<' | '<=' | '=' | '>=' | '>', value: number) => {
      const out = new Int32Array(4);
      return Array.from(out.subarray(0, keepComparing(op, col, value, all, out)));
    };
    expect(keep('<=', 12.34)).toEqual([0, 1, 3]);
    expect(keep('<', 12.34)).toEqual([1, 3]);
    expect(keep('=', 12.34)).toEqual([0]);
    expect(keep('>=', 12.34)).toEqual([0, 2]);
    expect(keep('<=', 0.3)).toEqual([3]);
    expect(keep('>', 12.35)).toEqual([]);
  });
});
