import { describe, expect, it } from 'vitest';
import { matchScreen } from './run';
import { setup } from './test-universe';

const u = setup(
  [
    { permaticker: 1, ticker: 'BIG', exchange: 'NYSE', sector: 'Energy', values: { market_cap: 50e9 } },
    { permaticker: 2, ticker: 'MID', exchange: 'NASDAQ', sector: 'Technology', values: { market_cap: 5e9 } },
    { permaticker: 3, ticker: 'SML', exchange: 'NASDAQ', sector: 'Technology', values: { market_cap: 3e8 } },
    { permaticker: 4, ticker: 'NOC', exchange: 'NYSE', sector: 'Energy', values: { market_cap: null } },
    // Delisted after the snapshot date: still listed as of it (no survivorship bias).
    { permaticker: 5, ticker: 'LAT', isDelisted: true, lastPriceDate: '2025-03-01', values: { market_cap: 1e9 } },
    // Delisted on the snapshot date.
    { permaticker: 6, ticker: 'GON', isDelisted: true, lastPriceDate: '2024-06-28', values: { market_cap: 1e9 } },
  ],
  '2024-06-28',
);
const pass = (universe: object) => Array.from(matchScreen(u.compile([], { universe }), u.prepared).ranked, (r) => u.prepared.ticker[r]);

describe('universe', () => {
  it('everything listed on the date by default', () => {
    expect(pass({})).toEqual(['BIG', 'LAT', 'MID', 'NOC', 'SML']);
    expect(pass({ includeDelisted: true })).toEqual(['BIG', 'GON', 'LAT', 'MID', 'NOC', 'SML']);
  });
  it('exchanges, sectors and market-cap range; unknown market cap is outside any range', () => {
    expect(pass({ exchanges: ['NASDAQ'] })).toEqual(['MID', 'SML']);
    expect(pass({ sectors: ['Energy', 'Technology'], marketCapMin: 1e9 })).toEqual(['BIG', 'LAT', 'MID']);
    expect(pass({ marketCapMax: 1e9 })).toEqual(['LAT', 'SML']);
  });
  it('securities without descriptive data are never in the universe', () => {
    const bare = { ...u.prepared, known: new Uint8Array(u.prepared.size) };
    expect(matchScreen(u.compile([]), bare).ranked.length).toBe(0);
  });
});
