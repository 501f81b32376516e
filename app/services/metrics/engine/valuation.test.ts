import { describe, expect, it } from 'vitest';
import { fixtureSecurity, instant, quarter } from '../testing/fixtures';
import { evaluateAt } from './evaluate';
import { metricValue } from './snapshot';

// One company with four quarters of results and a balance sheet, priced at 20.
const q = (concept: string, values: [number, number, number, number]) => [
  quarter(concept, 2023, 2, values[0], '2023-08-01'),
  quarter(concept, 2023, 3, values[1], '2023-11-01'),
  quarter(concept, 2023, 4, values[2], '2024-02-01'),
  quarter(concept, 2024, 1, values[3], '2024-05-01'),
];
const facts = [
  ...q('revenue', [100, 100, 100, 100]),
  ...q('cost_of_revenue', [60, 60, 60, 60]),
  ...q('operating_income', [20, 20, 20, 20]),
  ...q('net_income', [10, 10, 15, 15]),
  ...q('depreciation', [5, 5, 5, 5]),
  ...q('operating_cash_flow', [12, 12, 12, 12]),
  ...q('capex', [-2, -2, -2, -2]), // stored as a negative outflow by some sources
  ...q('interest_expense', [4, 4, 4, 4]),
  instant('shares_outstanding', '2024-03-31', 10, '2024-05-01'),
  instant('equity', '2024-03-31', 250, '2024-05-01'),
  instant('total_assets', '2024-03-31', 500, '2024-05-01'),
  instant('cash', '2024-03-31', 30, '2024-05-01'),
  instant('long_term_debt', '2024-03-31', 80, '2024-05-01'),
  instant('current_assets', '2024-03-31', 150, '2024-05-01'),
  instant('current_liabilities', '2024-03-31', 100, '2024-05-01'),
  instant('inventory', '2024-03-31', 40, '2024-05-01'),
];

function snapshotWith(close: (k: number) => number, closeUnadj?: (k: number, c: number) => number, extra = facts) {
  const sec = fixtureSecurity({
    start: '2023-01-02',
    days: 400,
    close,
    closeUnadj,
    facts: extra,
  });
  return evaluateAt({ securities: [sec], market: null }, '2024-06-03');
}

describe('valuation, profitability and health ratios', () => {
  const snap = snapshotWith(() => 20);
  const v = (id: string) => metricValue(snap, 1, id);

  it('values the company from price × shares', () => {
    expect(v('market_cap')).toBe(200);
    expect(v('enterprise_value')).toBe(200 + 80 - 30);
    expect(v('pe_ttm')).toBe(200 / 50);
    expect(v('ps_ttm')).toBe(200 / 400);
    expect(v('pb')).toBe(200 / 250);
    expect(v('earnings_yield')).toBe(50 / 200);
    expect(v('ev_ebitda_ttm')).toBe(250 / 100);
    expect(v('fcf_ttm')).toBe(48 - 8);
    expect(v('fcf_yield')).toBe(40 / 200);
    expect(v('eps_ttm')).toBe(5);
  });

  it('computes margins and returns', () => {
    expect(v('gross_margin')).toBe(160 / 400);
    expect(v('operating_margin')).toBe(80 / 400);
    expect(v('net_margin')).toBe(50 / 400);
    expect(v('roe')).toBe(50 / 250);
    expect(v('roa')).toBe(50 / 500);
  });

  it('computes balance-sheet ratios', () => {
    expect(v('current_ratio')).toBe(1.5);
    expect(v('quick_ratio')).toBe((150 - 40) / 100);
    expect(v('debt_to_equity')).toBe(80 / 250);
    expect(v('interest_coverage')).toBe(80 / 16);
  });

  it('restates shares for a split after the balance-sheet date', () => {
    // A 2:1 split on bar 330 (2024-04-08) (after 2024-03-31): before it the stock traded at 40, after at 20.
    const split = snapshotWith(
      () => 20,
      (k, c) => (k < 330 ? c * 2 : c),
    );
    // 10 shares filed before the split are 20 shares after it; price 20 → market cap 400.
    expect(metricValue(split, 1, 'shares_outstanding_adj')).toBe(20);
    expect(metricValue(split, 1, 'market_cap')).toBe(400);
    expect(metricValue(split, 1, 'price')).toBe(20);
  });

  it('gives n/a for ratios over a loss or a missing input', () => {
    const loss = snapshotWith(() => 20, undefined, [
      ...facts.filter((f) => f.concept !== 'net_income'),
      ...q('net_income', [-5, -5, -5, -5]),
    ]);
    expect(metricValue(loss, 1, 'pe_ttm')).toBeNull();
    expect(metricValue(loss, 1, 'earnings_yield')).toBe(-20 / 200);
    const noShares = snapshotWith(
      () => 20,
      undefined,
      facts.filter((f) => f.concept !== 'shares_outstanding'),
    );
    expect(metricValue(noShares, 1, 'market_cap')).toBeNull();
    expect(metricValue(noShares, 1, 'pe_ttm')).toBeNull();
    expect(metricValue(noShares, 1, 'net_margin')).toBe(50 / 400);
  });
});
