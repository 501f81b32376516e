import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../metrics/testing/synthetic-universe';
import { beyondCut, groupCuts, groupPositions, inTopPercent } from './rank-within-group';

// The fast row test (one cut per group) passes exactly the rows that counting positions passes:
// ties, signed zeros, infinities, n/a values, rows without a group, rows left out of the universe.
describe('percentile cuts agree with positions', () => {
  it('on 400 random columns, every percent and side', () => {
    const rand = mulberry32(11);
    const pool = [0, -0, 1, 1, 2, -3.5, Infinity, -Infinity, NaN, 0.1 + 0.2, 0.3];
    for (let trial = 0; trial < 400; trial++) {
      const size = 1 + Math.floor(rand() * (trial < 300 ? 40 : trial < 380 ? 400 : 5000));
      const values = Float64Array.from({ length: size }, () =>
        rand() < 0.5 ? pool[Math.floor(rand() * pool.length)] : Math.round(rand() * 20) / 4,
      );
      const groups = Int32Array.from({ length: size }, () => Math.floor(rand() * 5) - 1);
      const rows = Int32Array.from(Array.from({ length: size }, (_, r) => r).filter(() => rand() < 0.8));
      const percent = [0.1, 1, 12.5, 20, 33.3, 50, 99.9, 100][trial % 8];
      const top = trial % 3 !== 0;
      const group = trial % 2 === 0 ? groups : null;
      const pos = groupPositions(size, rows, values, group, top);
      const cuts = groupCuts(rows, values, group, top, percent);
      const expected = Array.from(rows, (r) => inTopPercent(pos.better[r], pos.groupSize[r], percent));
      const got = Array.from(rows, (r) => beyondCut(values[r], group === null ? 0 : group[r], cuts, top));
      expect({ trial, got }).toEqual({ trial, got: expected });
    }
  });
});
