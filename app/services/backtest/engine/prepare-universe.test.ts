import { describe, expect, it } from 'vitest';
import { compileScreen, matchScreen, prepareUniverse, type PreparedUniverse } from '../../screener/engine';
import { snapshotOf } from '../../screener/engine/test-universe';
import { screenOf } from './test-panel';
import { universePreparer } from './prepare-universe';

// The backtest's once-per-run preparation gives the screener exactly what prepareUniverse gives.
const { snapshot, securities } = snapshotOf(
  [
    { permaticker: 1, ticker: 'AAA', sector: 'Energy', industry: 'Oil', values: { pe_ttm: 10, roe: 0.1 } },
    { permaticker: 2, ticker: 'BBB', sector: 'Technology', exchange: 'NASDAQ', values: { pe_ttm: 15, roe: 0.3 } },
    { permaticker: 3, ticker: 'GONE', isDelisted: true, lastPriceDate: '2024-06-28', values: { pe_ttm: 5, roe: 0.2 } },
    { permaticker: 4, ticker: 'LATER', isDelisted: true, lastPriceDate: '2025-01-10', sector: null, values: { pe_ttm: 8, roe: 0.25 } },
    { permaticker: 6, ticker: 'NOSEC', exchange: null, values: { pe_ttm: 20, roe: null } },
  ],
  '2024-06-28',
);
// A snapshot row without a security (permaticker 5) and securities the snapshot lacks (7, 8).
const extra = [
  { ...securities[0], permaticker: 7, ticker: 'ZZZ', sector: 'Utilities' },
  { ...securities[0], permaticker: 8, ticker: 'YYY', industry: 'Banks' },
];
const rows = {
  ...snapshot,
  permatickers: Int32Array.from([1, 2, 3, 4, 5, 6]),
  values: Object.fromEntries(Object.entries(snapshot.values).map(([k, v]) => [k, Float64Array.from([...v.subarray(0, 4), 1, v[4]])])),
};
const view = (p: PreparedUniverse) => ({
  known: Array.from(p.known),
  ticker: p.ticker,
  name: p.name,
  delistedAsOf: Array.from(p.delistedAsOf),
  exchange: Array.from(p.exchange.codes, (c) => (c < 0 ? null : p.exchange.dictionary[c])),
  sector: Array.from(p.sector.codes, (c) => (c < 0 ? null : p.sector.dictionary[c])),
  industry: Array.from(p.industry.codes, (c) => (c < 0 ? null : p.industry.dictionary[c])),
});

describe('universe preparation shared by every rebalance', () => {
  const mine = universePreparer([...extra, ...securities])(rows);
  const theirs = prepareUniverse(rows, [...extra, ...securities]);

  it('has the same rows, names, groups and delisted-as-of flags', () => {
    expect(view(mine)).toEqual(view(theirs));
    expect(view(mine).delistedAsOf).toEqual([0, 0, 1, 0, 0, 0]);
  });

  it('reuses its buffers from one date to the next without leaking the previous one', () => {
    const prepare = universePreparer([...extra, ...securities]);
    prepare(rows);
    // A later date: fewer rows, the unknown security and the delisted one gone, one row moved.
    const keep = [1, 3, 5];
    const later = {
      ...rows,
      day: rows.day + 400,
      permatickers: Int32Array.from(keep, (r) => rows.permatickers[r]),
      values: Object.fromEntries(Object.entries(rows.values).map(([k, v]) => [k, Float64Array.from(keep, (r) => v[r])])),
    };
    expect(view(prepare(later))).toEqual(view(prepareUniverse(later, [...extra, ...securities])));
    expect(view(prepare(rows))).toEqual(view(theirs));
  });

  it('on a later date with the same rows, updates who is delisted as of that date', () => {
    const prepare = universePreparer([...extra, ...securities]);
    expect(view(prepare(rows)).delistedAsOf).toEqual([0, 0, 1, 0, 0, 0]);
    // The same rows (a copy, as the next date's snapshot holds them) after LATER's last price day.
    const later = { ...rows, day: rows.day + 200, permatickers: Int32Array.from(rows.permatickers) };
    expect(view(prepare(later))).toEqual(view(prepareUniverse(later, [...extra, ...securities])));
    expect(view(prepare(later)).delistedAsOf).toEqual([0, 0, 1, 1, 0, 0]);
    // And back: the flags follow the date asked for, not the last one.
    expect(view(prepare(rows))).toEqual(view(theirs));
  });

  it('gives the same screen results', () => {
    for (const screen of [
      screenOf(['pe_ttm < 16', 'sector in ["Technology", "Energy"]']),
      screenOf(['roe in top 50% of sector'], { ranking: [{ metric: 'pe_ttm', direction: 'asc', weight: 1 }] }),
      screenOf(['exchange not in ["NASDAQ"]'], { universe: { includeDelisted: true } }),
    ]) {
      const c = compileScreen(screen);
      expect(Array.from(matchScreen(c, mine).ranked)).toEqual(Array.from(matchScreen(c, theirs).ranked));
    }
  });
});
