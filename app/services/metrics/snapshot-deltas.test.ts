import { describe, expect, it } from 'vitest';
import { toEpochDay } from '../dates';
import { BlockChain, chainPeriodStart, ColumnChain, columnBits, encodeColumnDelta, isDeltaColumn, type ColumnRow } from './snapshot-deltas';
import { decodeSnapshotValues, encodeSnapshotValues } from './snapshot-values';

// A column stored as the changes from its block's previous date must read back as exactly the
// column stored in full, whatever joined or left the block in between; a damaged one must fail
// loudly rather than read as other numbers.

function row(day: number, perms: number[], values: number[]): ColumnRow & { bytes: Uint8Array } {
  const bytes = encodeSnapshotValues(Float64Array.from(values));
  return { day, perms: Int32Array.from(perms), bits: columnBits(bytes), bytes };
}

/** What the full column reads as (snapshot-values.ts). */
function full(r: { perms: Int32Array; bytes: Uint8Array }): Float64Array {
  const out = new Float64Array(r.perms.length);
  decodeSnapshotValues(r.bytes, r.perms.length, out, 0);
  return out;
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('snapshot columns stored as changes', () => {
  it('store only what changed, and read back the full column bit for bit as companies join and leave', () => {
    const random = seeded(7);
    const chain = new ColumnChain();
    let inputs = Array.from({ length: 250 }, () => random() * 100);
    let prev = row(
      20000,
      Array.from({ length: 250 }, (_, i) => 1000 + i * 3),
      inputs,
    );
    chain.decode(prev.bytes, prev.perms, prev.day, new Float64Array(250), 0);
    let deltas = 0;
    for (let date = 0; date < 40; date++) {
      // Some companies leave, some join (new permatickers between and after the old ones).
      const perms = [...prev.perms].filter(() => random() > 0.02);
      for (let k = 0; k < 4; k++) perms.push(1000 + Math.floor(random() * 900));
      const next = [...new Set(perms)].sort((a, b) => a - b);
      const old = new Map(Array.from(prev.perms, (p, i) => [p, inputs[i]]));
      const values = next.map((p) => {
        const r = random();
        if (old.has(p) && r < 0.7) return old.get(p)!;
        return r < 0.75 ? Number.NaN : r < 0.78 ? -0 : (random() - 0.5) * 10 ** Math.floor(random() * 12 - 4);
      });
      const cur = row(prev.day + 28, next, values);
      const delta = encodeColumnDelta(prev, cur);
      expect(delta).not.toBeNull();
      deltas++;
      expect(isDeltaColumn(delta!)).toBe(true);
      expect(delta!.byteLength % 4).toBe(1);
      expect(delta!.byteLength).toBeLessThan(cur.bytes.byteLength * 0.6);
      const out = new Float64Array(next.length + 3).fill(42);
      chain.decode(delta!, cur.perms, cur.day, out, 2);
      expect(Array.from(out.subarray(2, 2 + next.length))).toEqual(Array.from(full(cur)));
      expect([out[0], out[1], out[out.length - 1]]).toEqual([42, 42, 42]);
      prev = cur;
      inputs = values;
    }
    expect(deltas).toBe(40);
  });

  it('keep a column in full when most of it changed, and tell the two forms apart by length', () => {
    const a = row(20000, [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8]);
    const b = row(20030, [1, 2, 3, 4, 5, 6, 7, 8], [9, 9, 9, 9, 9, 9, 9, 8]);
    expect(encodeColumnDelta(a, b)).toBeNull();
    expect(isDeltaColumn(b.bytes)).toBe(false);
    // A full column never has a length of 4k + 1, however its first byte reads.
    expect(isDeltaColumn(Uint8Array.from([0x44, 0, 0, 0]))).toBe(false);
  });

  it('fail with a clear message on a change list without a row before, after another date, cut short, or keeping a company that was not there', () => {
    const a = row(20000, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const b = row(20030, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
    const delta = encodeColumnDelta(a, b)!;
    expect(() => new ColumnChain().decode(delta, b.perms, b.day, new Float64Array(10), 0)).toThrow(
      'The stored snapshot of 2024-11-03 holds changes but has no full row before it.',
    );

    // A date stored in between (e.g. weekly snapshots added later): the changes are not from it.
    const between = new ColumnChain();
    between.decode(a.bytes, a.perms, a.day, null, 0);
    between.decode(a.bytes, a.perms, 20010, null, 0);
    expect(() => between.decode(delta, b.perms, b.day, new Float64Array(10), 0)).toThrow(
      'The stored snapshot of 2024-11-03 holds the changes from 2024-10-04, but the row before it is of 2024-10-14.',
    );

    const cut = new ColumnChain();
    cut.decode(a.bytes, a.perms, a.day, null, 0);
    expect(() => cut.decode(delta.subarray(0, delta.byteLength - 4), b.perms, b.day, new Float64Array(10), 0)).toThrow(
      /bytes, not what its 10 rows/,
    );
    const stub = new ColumnChain();
    stub.decode(a.bytes, a.perms, a.day, null, 0);
    expect(() => stub.decode(Uint8Array.from([0x44]), b.perms, b.day, new Float64Array(10), 0)).toThrow('holds the changes from no date');

    const other = new ColumnChain();
    other.decode(a.bytes, a.perms, a.day, null, 0);
    const moved = Int32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 99, 100]);
    expect(() => other.decode(delta, moved, b.day, new Float64Array(10), 0)).toThrow('keeps the value of permaticker 99');
  });

  it('read older Float64 columns as before, and refuse a change list that follows one', () => {
    const chain = new ColumnChain();
    const f64 = Float64Array.from([12.34, Math.PI]);
    const out = new Float64Array(2);
    chain.decode(new Uint8Array(f64.buffer), Int32Array.from([1, 2]), 20000, out, 0);
    expect(Array.from(out)).toEqual([12.34, 3.141593]);
    const a = row(20000, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const b = row(20030, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
    expect(() => chain.decode(encodeColumnDelta(a, b)!, b.perms, b.day, out, 0)).toThrow('has no full row before it');
  });
});

describe('a block chain (a build thread encoding its block, day after day)', () => {
  it('stores each metric as the column encoded alone would be, from its own copy of the day before', () => {
    const random = seeded(11);
    const chain = new BlockChain();
    const metrics = 5;
    let perms = Array.from({ length: 40 }, (_, i) => 10 + i * 2);
    let prev: { day: number; perms: Int32Array; values: Uint8Array[] } | null = null;
    for (let k = 0; k < 6; k++) {
      const day = 20000 + 30 * k;
      // One array for all metrics of the day, as an evaluator thread makes it.
      const all = new Float32Array(perms.length * metrics);
      for (let i = 0; i < all.length; i++) all[i] = random() < 0.6 && k > 0 ? Math.floor(i / perms.length) : random() * 100;
      const values = Array.from({ length: metrics }, (_, m) => new Uint8Array(all.buffer, m * perms.length * 4, perms.length * 4));
      const expected = values.map((v) => Uint8Array.from(v));
      const dayPerms = Int32Array.from(perms);
      const stored = chain.encode(day, dayPerms, values, prev?.day ?? -1);
      for (let m = 0; m < metrics; m++) {
        const alone = prev
          ? (encodeColumnDelta(
              { day: prev.day, perms: prev.perms, bits: columnBits(prev.values[m]) },
              { day, perms: dayPerms, bits: columnBits(expected[m]) },
            ) ?? expected[m])
          : expected[m];
        expect(Array.from(stored[m])).toEqual(Array.from(alone));
      }
      if (k > 1) expect(stored.some(isDeltaColumn)).toBe(true);
      prev = { day, perms: dayPerms.slice(), values: expected };
      // The caller may reuse its arrays once encoded: the chain must not read them again.
      all.fill(-1);
      dayPerms.fill(0);
      perms = perms.filter(() => random() > 0.1).concat([perms[perms.length - 1] + 1 + k]);
    }
  });
});

describe('a block chain given a column that is not Float32 values', () => {
  it('refuses it rather than cutting it short', () => {
    expect(() => new BlockChain().encode(20000, Int32Array.from([1, 2]), [new Uint8Array(8), new Uint8Array(5)], -1)).toThrow(
      'A snapshot column of 5 bytes is not Float32 values (4 bytes each).',
    );
  });
});

describe('chain periods', () => {
  it('start every calendar year, on January 1st', () => {
    const start = (d: string) => chainPeriodStart(toEpochDay(d));
    expect(start('2025-01-01')).toBe('2025-01-01');
    expect(start('2025-12-31')).toBe('2025-01-01');
    expect(start('2026-01-02')).toBe('2026-01-01');
    expect(start('1999-12-31')).toBe('1999-01-01');
  });
});
