import { describe, expect, it } from 'vitest';
import { matchScreen } from './run';
import { setup } from './test-universe';

const u = setup([
  { permaticker: 1, ticker: 'OIL', sector: 'Energy', industry: 'Oil & Gas', exchange: 'NYSE', values: {} },
  { permaticker: 2, ticker: 'SFT', sector: 'Technology', industry: 'Software', exchange: 'NASDAQ', values: {} },
  { permaticker: 3, ticker: 'BNK', sector: 'Financials', industry: 'Banks', exchange: 'NYSE', values: {} },
  { permaticker: 4, ticker: 'UNK', sector: null, industry: null, exchange: null, values: {} },
]);
const pass = (rule: string) => Array.from(matchScreen(u.compile([rule]), u.prepared).ranked, (r) => u.prepared.ticker[r]);

describe('in / not in for categories', () => {
  it('in matches any listed value, case-insensitively', () => {
    expect(pass('sector in ["energy", "Financials"]')).toEqual(['BNK', 'OIL']);
    expect(pass('exchange in ["NASDAQ"]')).toEqual(['SFT']);
    expect(pass('industry in ["Oil & Gas"]')).toEqual(['OIL']);
  });
  it('not in excludes them, and a security with no value is in neither', () => {
    expect(pass('sector not in ["Energy"]')).toEqual(['BNK', 'SFT']);
    expect(pass('sector in ["Nothing"]')).toEqual([]);
  });
});
