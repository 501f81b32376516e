import { describe, expect, it } from 'vitest';
import { companyMajorOrder } from './valuation-panel.server';

describe('companyMajorOrder', () => {
  it('puts each company’s rows together, companies ascending, each company’s rows in the order they came', () => {
    // Rows gathered date by date: companies 30, 7 and 12 on the first date, 12 and 7 on the next, 7 alone on the last.
    const perm = Int32Array.from([30, 7, 12, 12, 7, 7]);
    expect(Array.from(companyMajorOrder(perm))).toEqual([1, 4, 5, 2, 3, 0]);
  });

  it('orders as a stable sort by company does, on random rows with negative and large keys', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const keys = [-5, 0, 3, 2 ** 30, 41, 17];
    const perm = Int32Array.from({ length: 2_000 }, () => keys[next() % keys.length]);
    const expected = Array.from(perm.keys()).sort((a, b) => perm[a] - perm[b] || a - b);
    expect(Array.from(companyMajorOrder(perm))).toEqual(expected);
    expect(companyMajorOrder(new Int32Array(0))).toHaveLength(0);
  });
});
