import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../metrics/testing/synthetic-universe';
import { matchScreen } from './run';
import { setup } from './test-universe';

// On a random universe with n/a sprinkled in, the compiled engine keeps exactly the rows that a
// plain filter over the same objects keeps.

const rand = mulberry32(7);
const maybe = (v: number) => (rand() < 0.15 ? null : v);
const rows = Array.from({ length: 3000 }, (_, i) => ({
  permaticker: 10_000 + i,
  ticker: `S${i}`,
  sector: ['Energy', 'Technology', 'Utilities', null][i % 4],
  values: {
    pe_ttm: maybe(rand() * 60 - 10),
    price: maybe(5 + rand() * 200),
    sma200: maybe(5 + rand() * 200),
    roe: maybe(rand() - 0.3),
    market_cap: maybe(rand() * 1e11),
  },
}));
const u = setup(rows);

describe('engine agrees with a naive filter', () => {
  it('value, between, compare, expression and category rules', () => {
    const compiled = u.compile(
      ['pe_ttm between 0 and 25', 'price > 0.9 * sma200', 'roe != 0', '(price - sma200) / sma200 < 0.5', 'sector not in ["Utilities"]'],
      { universe: { marketCapMin: 1e9 } },
    );
    const got = Array.from(matchScreen(compiled, u.prepared).ranked, (r) => u.prepared.ticker[r]).sort();
    const want = rows
      .filter((r) => {
        const v = r.values;
        if (v.market_cap === null || v.market_cap < 1e9) return false;
        if (v.pe_ttm === null || v.pe_ttm < 0 || v.pe_ttm > 25) return false;
        if (v.price === null || v.sma200 === null || !(v.price > 0.9 * v.sma200)) return false;
        if (v.roe === null || v.roe === 0) return false;
        if (!((v.price - v.sma200) / v.sma200 < 0.5)) return false;
        return r.sector !== null && r.sector !== 'Utilities';
      })
      .map((r) => r.ticker)
      .sort();
    expect(want.length).toBeGreaterThan(50);
    expect(got).toEqual(want);
  });
});
