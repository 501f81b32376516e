import { describe, expect, it } from 'vitest';
import { matchScreen } from './run';
import { setup } from './test-universe';

const u = setup([
  { permaticker: 1, ticker: 'AAA', values: { pe_ttm: 10 } },
  { permaticker: 2, ticker: 'BBB', values: { pe_ttm: 15 } },
  { permaticker: 3, ticker: 'CCC', values: { pe_ttm: 20 } },
  { permaticker: 4, ticker: 'NUL', values: { pe_ttm: null } },
]);
const tickers = (rules: string[]) => Array.from(matchScreen(u.compile(rules), u.prepared).ranked, (r) => u.prepared.ticker[r]);

describe('metric op value', () => {
  it.each([
    ['pe_ttm < 15', ['AAA']],
    ['pe_ttm <= 15', ['AAA', 'BBB']],
    ['pe_ttm > 15', ['CCC']],
    ['pe_ttm >= 15', ['BBB', 'CCC']],
    ['pe_ttm = 15', ['BBB']],
    ['pe_ttm != 15', ['AAA', 'CCC']],
    ['pe_ttm between 12 and 20', ['BBB', 'CCC']],
    ['pe_ttm between 15 and 15', ['BBB']],
  ])('%s', (rule, expected) => {
    expect(tickers([rule])).toEqual(expected);
  });

  it('applies several rules together', () => {
    expect(tickers(['pe_ttm > 9', 'pe_ttm < 20'])).toEqual(['AAA', 'BBB']);
  });

  it('treats a metric the snapshot lacks as n/a everywhere', () => {
    expect(tickers(['roe > -1000'])).toEqual([]);
  });
});
