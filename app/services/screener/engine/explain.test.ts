import { describe, expect, it } from 'vitest';
import { explainSecurity } from './explain';
import { setup } from './test-universe';

const u = setup([
  { permaticker: 1, ticker: 'IN', sector: 'Energy', values: { pe_ttm: 8, price: 12, sma200: 10, roe: 0.2, market_cap: 2e9 } },
  { permaticker: 2, ticker: 'OUT', sector: 'Energy', values: { pe_ttm: 30, price: 9, sma200: 10, roe: null, market_cap: 2e8 } },
]);
const compiled = u.compile(['pe_ttm < 15', 'price > sma200', 'sector in ["Energy"]', 'roe in top 50% of sector'], {
  universe: { marketCapMin: 1e9 },
});

describe('why is X in or out', () => {
  it('a passing security: every check passes with its values', () => {
    const why = explainSecurity(compiled, u.prepared, 1);
    expect(why.passes).toBe(true);
    expect(why.rules.map((r) => [r.label, r.passes, r.detail])).toEqual([
      ['pe_ttm < 15', true, 'pe_ttm is 8.00'],
      ['price > sma200', true, 'price is $12.00, sma200 is $10.00'],
      ['sector in ["Energy"]', true, 'sector is Energy'],
      ['roe in top 50% of sector', true, 'roe is 20.00%: top 1 of 1 in Energy'],
    ]);
  });

  it('a failing security: each failing check is reported, not just the first', () => {
    const why = explainSecurity(compiled, u.prepared, 2);
    expect(why.passes).toBe(false);
    expect(why.universe.find((c) => c.label.startsWith('Market cap'))?.passes).toBe(false);
    expect(why.rules.map((r) => r.passes)).toEqual([false, false, true, false]);
    expect(why.rules[3].detail).toBe('roe is n/a (not ranked)');
  });

  it('a security not listed on the date', () => {
    expect(explainSecurity(compiled, u.prepared, 99)).toMatchObject({ inSnapshot: false, passes: false });
  });
});
