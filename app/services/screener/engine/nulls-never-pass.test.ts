import { describe, expect, it } from 'vitest';
import { matchScreen } from './run';
import { setup } from './test-universe';

// n/a is not zero and not "different from 5": a security without the value fails every numeric
// rule kind, including != and expressions whose other inputs exist.

const u = setup([
  { permaticker: 1, ticker: 'HAS', values: { pe_ttm: 5, price: 10, sma200: 8, roe: 0.2, revenue_ttm: 100, total_assets: 50 } },
  { permaticker: 2, ticker: 'NUL', values: { pe_ttm: null, price: 10, sma200: null, roe: null, revenue_ttm: 100, total_assets: null } },
]);
const pass = (rule: string) => Array.from(matchScreen(u.compile([rule]), u.prepared).ranked, (r) => u.prepared.ticker[r]);

describe('nulls never pass a numeric rule', () => {
  it.each([
    'pe_ttm != 99',
    'pe_ttm < 1e9',
    'pe_ttm > -1e9',
    'pe_ttm between -1e9 and 1e9',
    'price > 0 * sma200',
    'price != sma200',
    'revenue_ttm / total_assets > -1e9',
    'revenue_ttm / total_assets != 0',
    'abs(roe) >= 0',
    'roe in top 100% of universe',
    'roe in bottom 100% of sector',
  ])('%s', (rule) => {
    expect(pass(rule)).toEqual(['HAS']);
  });

  it('division by zero is n/a too', () => {
    const z = setup([{ permaticker: 1, ticker: 'ZER', values: { revenue_ttm: 1, total_assets: 0 } }]);
    expect(matchScreen(z.compile(['revenue_ttm / total_assets > -1e300']), z.prepared).ranked.length).toBe(0);
  });
});
