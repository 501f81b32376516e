import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../metrics/testing/synthetic-universe';
import { orderMore, rankRows } from './ranking';
import { matchRanked, matchScreen } from './run';
import { setup } from './test-universe';

// The ranking gives exactly what the plain definition gives: scores from a comparator sort of each
// metric's values, rows ordered by score, ticker and permaticker with a comparator sort. Ties,
// n/a, signed zeros, infinities, shared tickers and composite weights included.
function reference(
  parts: { metric: string; direction: 'asc' | 'desc'; weight: number }[],
  cols: Record<string, Float64Array>,
  ticker: string[],
  perm: Int32Array,
  rows: number[],
) {
  const total = new Float64Array(ticker.length);
  const weightSum = parts.reduce((s, x) => s + x.weight, 0);
  for (const part of parts) {
    const col = cols[part.metric];
    const present = rows.filter((r) => !Number.isNaN(col[r]));
    const desc = part.direction === 'desc';
    present.sort((a, b) => (desc ? col[b] - col[a] : col[a] - col[b]));
    const n = present.length;
    let tieStart = 0;
    for (let i = 0; i < n; i++) {
      if (col[present[i]] !== col[present[tieStart]]) tieStart = i;
      total[present[i]] += (part.weight * (1 - tieStart / n)) / weightSum;
    }
  }
  const order = [...rows].sort(
    (a, b) => total[b] - total[a] || (ticker[a] < ticker[b] ? -1 : ticker[a] > ticker[b] ? 1 : perm[a] - perm[b]),
  );
  return { order, score: Array.from(rows, (r) => total[r]) };
}

describe('ranking', () => {
  it('matches comparator sorts on random universes', () => {
    const rand = mulberry32(5);
    const pool = [0, -0, 1, 2, -1, Infinity, -Infinity, NaN, 0.5];
    for (let trial = 0; trial < 60; trial++) {
      const size = 1 + Math.floor(rand() * (trial < 40 ? 30 : 600));
      const value = () => (rand() < 0.4 ? pool[Math.floor(rand() * pool.length)] : Math.round(rand() * 40) / 8);
      const u = setup(
        Array.from({ length: size }, (_, k) => ({
          permaticker: 10 + k,
          ticker: `T${Math.floor(rand() * size * 0.7)}`,
          values: { roe: value(), pe_ttm: value(), ret_12m: value() },
        })),
      );
      const rows = Array.from({ length: size }, (_, r) => r).filter(() => rand() < 0.85);
      const parts = [
        { metric: 'roe', direction: 'desc' as const, weight: 1 },
        { metric: 'pe_ttm', direction: 'asc' as const, weight: 1 + Math.floor(rand() * 3) },
        { metric: 'ret_12m', direction: 'desc' as const, weight: 0.5 },
      ].slice(0, 1 + (trial % 3));
      const got = rankRows(parts, u.prepared, Int32Array.from(rows));
      const want = reference(parts, u.prepared.snapshot.values, u.prepared.ticker, u.prepared.snapshot.permatickers, rows);
      expect({ trial, order: Array.from(got.order), score: Array.from(rows, (r) => got.score[r]) }).toEqual({ trial, ...want });
      // Ordered only as far as needed, then further in steps: the same prefix and ranks each time.
      const first = Math.floor(rand() * (rows.length + 2));
      const partial = rankRows(parts, u.prepared, Int32Array.from(rows), first);
      const prefix = (upTo: number) => ({
        order: Array.from(partial.order.subarray(0, upTo)),
        rank: Array.from(partial.order.subarray(0, upTo), (r) => partial.rank[r]),
      });
      const full = (upTo: number) => ({
        order: Array.from(got.order.subarray(0, upTo)),
        rank: Array.from(got.order.subarray(0, upTo), (r) => got.rank[r]),
      });
      expect(partial.ordered).toBe(Math.min(first, rows.length));
      expect(prefix(partial.ordered)).toEqual(full(partial.ordered));
      expect([...partial.order].sort((a, b) => a - b)).toEqual(rows);
      for (let upTo = partial.ordered + 1 + Math.floor(rand() * 5); partial.ordered < rows.length; upTo += 1 + Math.floor(rand() * 40)) {
        orderMore(partial, u.prepared, upTo);
        expect(prefix(partial.ordered)).toEqual(full(partial.ordered));
      }
      expect(Array.from(partial.rank)).toEqual(Array.from(got.rank));
    }
  });

  it('gives the first N of one metric from the N-th value and its ties, without scoring the rest first', () => {
    // Ten rows with a value, the 3rd to 6th best tied (tickers out of order, two sharing one),
    // two without a value; the top 4 cuts through the tie.
    const values = [9, 7, 7, NaN, 7, 1, 8, 7, 2, NaN, 3, 0];
    const tickers = ['A', 'D', 'B', 'N', 'C', 'E', 'F', 'B', 'G', 'M', 'H', 'I'];
    const u = setup(values.map((v, k) => ({ permaticker: 10 + k, ticker: tickers[k], values: { roe: v } })));
    const rows = Int32Array.from(values.keys());
    const parts = [{ metric: 'roe', direction: 'desc' as const, weight: 2 }];
    const partial = rankRows(parts, u.prepared, rows, 4);
    expect(partial.scoreAll).toBeDefined();
    const full = rankRows(parts, u.prepared, rows);
    const firstOf = (r: typeof full, n: number) =>
      Array.from(r.order.subarray(0, n), (row) => [
        u.prepared.ticker[row],
        u.prepared.snapshot.permatickers[row],
        r.rank[row],
        r.score[row],
      ]);
    // A shared ticker goes by permaticker; C and D, tied with the two Bs, come after them.
    expect(firstOf(partial, 4)).toEqual([
      ['A', 10, 1, 1],
      ['F', 16, 2, 0.9],
      ['B', 12, 3, 0.8],
      ['B', 17, 3, 0.8],
    ]);
    expect(firstOf(partial, 4)).toEqual(firstOf(full, 4));
    // Read further: every row is scored and ordered as the full ranking has them.
    orderMore(partial, u.prepared, rows.length);
    expect(partial.scoreAll).toBeUndefined();
    expect(firstOf(partial, rows.length)).toEqual(firstOf(full, rows.length));
    // A weight so small its scores run together (the schema takes any positive one): as the full
    // ranking has it, ties by ticker where the values differ.
    for (const weight of [5e-324, 1e-322, 1e-310]) {
      const tiny = [{ metric: 'roe', direction: 'desc' as const, weight }];
      expect(firstOf(rankRows(tiny, u.prepared, rows, 4), 4)).toEqual(firstOf(rankRows(tiny, u.prepared, rows), 4));
    }
  });

  it('gives a backtest the rows, order, ranks and scores of matchScreen, read one at a time', () => {
    const rand = mulberry32(11);
    for (let trial = 0; trial < 40; trial++) {
      const size = 1 + Math.floor(rand() * 400);
      const u = setup(
        Array.from({ length: size }, (_, k) => ({
          permaticker: 10 + k,
          ticker: `T${Math.floor(rand() * size * 0.7)}`,
          values: { roe: Math.round(rand() * 40) / 8, pe_ttm: rand() < 0.2 ? NaN : Math.round(rand() * 40) / 8, ret_12m: rand() - 0.5 },
        })),
      );
      const ranking = [
        { metric: 'ret_12m', direction: 'desc' as const, weight: 1 },
        { metric: 'roe', direction: 'asc' as const, weight: 2 },
      ].slice(0, trial % 3);
      const limit = trial % 4 === 0 ? Math.floor(rand() * size) : null;
      const compiled = u.compile(trial % 2 ? ['pe_ttm > 1'] : [], { ranking, limit });
      const want = matchScreen(compiled, u.prepared);
      const got = matchRanked(compiled, u.prepared, Math.floor(rand() * 30));
      expect(got.count).toBe(want.ranked.length);
      expect(Array.from(got.universe)).toEqual(Array.from(want.universe));
      const order = Array.from({ length: got.count }, (_, i) => got.at(i));
      expect(order).toEqual(Array.from(want.ranked));
      expect(order.map((r) => [got.rank?.[r] ?? null, got.score?.[r] ?? null])).toEqual(
        order.map((r) => [want.rank?.[r] ?? null, want.score?.[r] ?? null]),
      );
    }
  });
});
