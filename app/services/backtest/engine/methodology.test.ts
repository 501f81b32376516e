import { describe, expect, it } from 'vitest';
import { METHODOLOGY } from './methodology';

// The methodology page text names every statistic the results show.
describe('methodology text', () => {
  it.each([
    'Total return',
    'CAGR',
    'Annual volatility',
    'Sharpe',
    'Sortino',
    'Calmar',
    'Maximum drawdown',
    'Beta',
    'Alpha',
    'Tracking error',
    'Information ratio',
    'Turnover',
    'Hit rate',
    'Cost drag',
    'Monthly and yearly returns',
    'next',
    'delisted',
    '60 exchange trading days',
    'last trading day of each period',
    'Lookbacks',
  ])('explains %s', (term) => {
    expect(METHODOLOGY).toContain(term);
  });
});
