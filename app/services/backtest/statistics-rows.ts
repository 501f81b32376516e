import type { BacktestStatistics } from './engine/types';

// The rows of the statistics table: every statistic a backtest computes, its label, how it is
// shown and the methodology anchor that defines it. Pure, shared by the page and its tests.

export type StatisticKey = Exclude<keyof BacktestStatistics, 'monthlyReturns'>;
export type StatisticFormat = 'percent' | 'ratio' | 'currency' | 'number' | 'date';

export type StatisticRow = { key: StatisticKey; label: string; format: StatisticFormat; anchor: string };

export const STATISTIC_ROWS: readonly StatisticRow[] = [
  { key: 'startDate', label: 'First day', format: 'date', anchor: 'calendar' },
  { key: 'endDate', label: 'Last day', format: 'date', anchor: 'calendar' },
  { key: 'years', label: 'Years', format: 'number', anchor: 'statistics' },
  { key: 'totalReturn', label: 'Total return', format: 'percent', anchor: 'total-return' },
  { key: 'cagr', label: 'CAGR', format: 'percent', anchor: 'cagr' },
  { key: 'annualVolatility', label: 'Annual volatility', format: 'percent', anchor: 'annual-volatility' },
  { key: 'sharpe', label: 'Sharpe ratio', format: 'ratio', anchor: 'sharpe' },
  { key: 'sortino', label: 'Sortino ratio', format: 'ratio', anchor: 'sortino' },
  { key: 'calmar', label: 'Calmar ratio', format: 'ratio', anchor: 'calmar' },
  { key: 'maxDrawdown', label: 'Maximum drawdown', format: 'percent', anchor: 'drawdown' },
  { key: 'peakDate', label: 'Peak before the maximum drawdown', format: 'date', anchor: 'drawdown' },
  { key: 'troughDate', label: 'Trough of the maximum drawdown', format: 'date', anchor: 'drawdown' },
  { key: 'recoveryDate', label: 'Recovery (back at the peak)', format: 'date', anchor: 'drawdown' },
  { key: 'benchmarkTotalReturn', label: 'Benchmark total return', format: 'percent', anchor: 'benchmark' },
  { key: 'benchmarkCagr', label: 'Benchmark CAGR', format: 'percent', anchor: 'benchmark' },
  { key: 'beta', label: 'Beta', format: 'ratio', anchor: 'beta' },
  { key: 'alpha', label: 'Alpha (Jensen, annual)', format: 'percent', anchor: 'alpha-jensen' },
  { key: 'trackingError', label: 'Tracking error', format: 'percent', anchor: 'tracking-error' },
  { key: 'informationRatio', label: 'Information ratio', format: 'ratio', anchor: 'tracking-error' },
  { key: 'annualTurnover', label: 'Turnover (one-way, per year)', format: 'percent', anchor: 'turnover' },
  { key: 'hitRate', label: 'Hit rate (positive periods)', format: 'percent', anchor: 'hit-rate' },
  { key: 'hitRateVsBenchmark', label: 'Hit rate against the benchmark', format: 'percent', anchor: 'hit-rate' },
  { key: 'totalCosts', label: 'Total costs', format: 'currency', anchor: 'trades' },
  { key: 'costDrag', label: 'Cost drag (per year)', format: 'percent', anchor: 'cost-drag' },
  { key: 'bestMonth', label: 'Best month', format: 'percent', anchor: 'monthly-and-yearly-returns' },
  { key: 'worstMonth', label: 'Worst month', format: 'percent', anchor: 'monthly-and-yearly-returns' },
  { key: 'bestYear', label: 'Best year', format: 'percent', anchor: 'monthly-and-yearly-returns' },
  { key: 'worstYear', label: 'Worst year', format: 'percent', anchor: 'monthly-and-yearly-returns' },
];
