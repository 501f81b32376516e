import { describe, expect, it } from 'vitest';
import { matchScreen } from './run';
import { setup } from './test-universe';

const u = setup([
  { permaticker: 1, ticker: 'UP', values: { price: 110, sma200: 100, sma50: 105 } },
  { permaticker: 2, ticker: 'FLAT', values: { price: 100, sma200: 100, sma50: 100 } },
  { permaticker: 3, ticker: 'DOWN', values: { price: 90, sma200: 100, sma50: 95 } },
]);
const pass = (rule: string) => Array.from(matchScreen(u.compile([rule]), u.prepared).ranked, (r) => u.prepared.ticker[r]);

describe('metric op metric with a factor', () => {
  it('compares against the other metric', () => {
    expect(pass('price > sma200')).toEqual(['UP']);
    expect(pass('price >= sma200')).toEqual(['FLAT', 'UP']);
  });
  it('scales the right side by the factor', () => {
    expect(pass('price > 1.05 * sma200')).toEqual(['UP']);
    expect(pass('price > 1.1 * sma200')).toEqual([]);
    expect(pass('price >= 0.9 * sma200')).toEqual(['DOWN', 'FLAT', 'UP']);
  });
  it('technical rules are rules over technical metrics (golden cross)', () => {
    expect(pass('sma50 > sma200')).toEqual(['UP']);
  });
});
