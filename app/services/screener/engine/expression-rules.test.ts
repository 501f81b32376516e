import { describe, expect, it } from 'vitest';
import { matchScreen } from './run';
import { setup } from './test-universe';

const u = setup([
  { permaticker: 1, ticker: 'A', values: { revenue_ttm: 100, cost_of_revenue_ttm: 60, total_assets: 200, price: 10, eps_ttm: 2 } },
  { permaticker: 2, ticker: 'B', values: { revenue_ttm: 100, cost_of_revenue_ttm: 90, total_assets: 200, price: 50, eps_ttm: 2 } },
  { permaticker: 3, ticker: 'C', values: { revenue_ttm: 300, cost_of_revenue_ttm: 100, total_assets: 1000, price: 8, eps_ttm: -1 } },
]);
const pass = (rule: string) => Array.from(matchScreen(u.compile([rule]), u.prepared).ranked, (r) => u.prepared.ticker[r]);

describe('arithmetic expressions over metrics', () => {
  it('(revenue - cost) / assets', () => {
    // A: 40/200 = 0.2, B: 10/200 = 0.05, C: 200/1000 = 0.2
    expect(pass('(revenue_ttm - cost_of_revenue_ttm) / total_assets > 0.1')).toEqual(['A', 'C']);
    expect(pass('(revenue_ttm - cost_of_revenue_ttm) / total_assets = 0.2')).toEqual(['A', 'C']);
  });
  it('precedence: a - b / c is not (a - b) / c', () => {
    // A: 100 - 60/200 = 99.7
    expect(pass('revenue_ttm - cost_of_revenue_ttm / total_assets > 99')).toEqual(['A', 'B', 'C']);
  });
  it('functions and unary minus', () => {
    expect(pass('abs(eps_ttm) * -1 < -1.5')).toEqual(['A', 'B']);
    expect(pass('max(price, 20) = 20')).toEqual(['A', 'C']);
    expect(pass('price / eps_ttm < 10')).toEqual(['A', 'C']);
  });
});
