import { describe, expect, it } from 'vitest';
import { screenPage } from './run';
import { setup } from './test-universe';

const u = setup([
  { permaticker: 1, ticker: 'A', values: { roe: 0.3, pe_ttm: 30 } },
  { permaticker: 2, ticker: 'B', values: { roe: 0.2, pe_ttm: 10 } },
  { permaticker: 3, ticker: 'C', values: { roe: 0.2, pe_ttm: 20 } },
  { permaticker: 4, ticker: 'D', values: { roe: null, pe_ttm: 5 } },
  { permaticker: 5, ticker: 'E', values: { roe: 0.1, pe_ttm: null } },
]);
const order = (ranking: { metric: string; direction: 'asc' | 'desc'; weight: number }[], limit: number | null = null) =>
  screenPage(u.compile([], { ranking, limit }), u.prepared).rows.map((r) => `${r.ticker}:${r.rank}`);

describe('ranking', () => {
  it('one metric orders by it, ties share a rank, n/a last', () => {
    expect(order([{ metric: 'roe', direction: 'desc', weight: 1 }])).toEqual(['A:1', 'B:2', 'C:2', 'E:4', 'D:5']);
    expect(order([{ metric: 'pe_ttm', direction: 'asc', weight: 1 }])).toEqual(['D:1', 'B:2', 'C:3', 'A:4', 'E:5']);
  });

  it('a composite averages percentile ranks with the weights', () => {
    // roe scores (n = 4): A 1, B 0.75, C 0.75, E 0.25, D 0. pe asc (n = 4): D 1, B 0.75, C 0.5, A 0.25, E 0.
    // Equal weights: B 0.75, C 0.625, A 0.625, D 0.5, E 0.125 → A and C tie (A first by ticker).
    expect(
      order([
        { metric: 'roe', direction: 'desc', weight: 1 },
        { metric: 'pe_ttm', direction: 'asc', weight: 1 },
      ]),
    ).toEqual(['B:1', 'A:2', 'C:2', 'D:4', 'E:5']);
    // pe weighted 3: B 0.75, D 0.75, C 0.5625, A 0.4375, E 0.0625.
    expect(
      order([
        { metric: 'roe', direction: 'desc', weight: 1 },
        { metric: 'pe_ttm', direction: 'asc', weight: 3 },
      ]),
    ).toEqual(['B:1', 'D:1', 'C:3', 'A:4', 'E:5']);
  });

  it('the limit keeps the best N by rank', () => {
    expect(order([{ metric: 'roe', direction: 'desc', weight: 1 }], 2)).toEqual(['A:1', 'B:2']);
  });
});
