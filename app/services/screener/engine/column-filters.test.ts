import { describe, expect, it } from 'vitest';
import type { CompareOp } from '../expression';
import { COMPARATORS, keepBetween, keepComparing } from './compare';
import { compileRule } from './rules';
import { ruleFromText } from '../model';
import { setup } from './test-universe';
import { universeChecks, universeRows } from './universe';

// The column loops screen exactly as the one-row tests: n/a, signed zeros and infinities included,
// in place or into another buffer.
const grid = [NaN, -Infinity, -1, -0, 0, 0.5, 1, 2, Infinity];
const col = Float64Array.from(grid.flatMap((v) => [v, v]));
const rows = Int32Array.from(col, (_, r) => r).filter((r) => r % 3 !== 1);

describe('column filters', () => {
  it('keepComparing agrees with COMPARATORS for every operator and value', () => {
    for (const op of Object.keys(COMPARATORS) as CompareOp[])
      for (const value of grid) {
        const out = new Int32Array(rows.length);
        const got = Array.from(out.subarray(0, keepComparing(op, col, value, rows, out)));
        const inPlace = Int32Array.from(rows);
        const same = Array.from(inPlace.subarray(0, keepComparing(op, col, value, inPlace, inPlace)));
        const want = Array.from(rows).filter((r) => COMPARATORS[op](col[r], value));
        expect({ op, value, got, same }).toEqual({ op, value, got: want, same: want });
      }
  });

  it('keepBetween agrees with the between rule', () => {
    for (const min of grid)
      for (const max of grid) {
        const out = new Int32Array(rows.length);
        const got = Array.from(out.subarray(0, keepBetween(col, min, max, rows, out)));
        expect({ min, max, got }).toEqual({ min, max, got: Array.from(rows).filter((r) => col[r] >= min && col[r] <= max) });
      }
  });

  it('every rule kind keeps the rows its test passes', () => {
    const u = setup(
      Array.from({ length: 40 }, (_, k) => ({
        permaticker: 1 + k,
        ticker: `T${k}`,
        sector: k % 4 === 0 ? null : ['Energy', 'Technology', 'Utilities'][k % 3],
        isDelisted: k % 9 === 0,
        lastPriceDate: k % 9 === 0 ? '2020-01-02' : null,
        values: { roe: grid[k % grid.length], pe_ttm: k % 5 === 0 ? null : k - 20, market_cap: k % 6 === 0 ? null : k * 1e8 },
      })),
    );
    const all = Int32Array.from({ length: u.prepared.size }, (_, r) => r);
    for (const text of [
      'roe > 0',
      'roe != 0',
      'pe_ttm <= -0',
      'pe_ttm between -5 and 5',
      'sector in ["Energy", "Utilities"]',
      'roe > pe_ttm',
      'roe * 2 < pe_ttm + 1',
      'pe_ttm in top 30% of sector',
      'roe in bottom 50% of universe',
    ]) {
      const bound = compileRule(ruleFromText(text)).bind(u.prepared, all);
      const out = new Int32Array(all.length);
      expect({ text, kept: Array.from(out.subarray(0, bound.keep(all, out))) }).toEqual({ text, kept: Array.from(all).filter(bound.test) });
    }
    const universe = {
      exchanges: [],
      sectors: ['Energy', 'Technology'],
      industries: [],
      marketCapMin: 5e8,
      marketCapMax: 3e9,
      includeDelisted: false,
    };
    const checks = universeChecks(universe, u.prepared);
    expect(checks).toHaveLength(4);
    expect(Array.from(universeRows(universe, u.prepared))).toEqual(
      Array.from(all).filter((r) => u.prepared.known[r] === 1 && checks.every((c) => c.test(r))),
    );
  });
});
