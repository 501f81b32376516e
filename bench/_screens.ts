// What the backtest benchmarks share, so their figures are about the same work.

/** The 5-rule screen of the backtest benchmarks (ranked by 12-month return, top 50). */
export const FIVE_RULES = [
  'market_cap > 300000000',
  'pe_ttm between 0 and 30',
  'roe > 0.05',
  'price > 5',
  'ret_12m in top 50% of universe',
];

/** The first of January `years` years before the store's last year, but after its first year (the 12-month return needs one). */
export function backtestStart(range: { first: string; last: string }, years: number): string {
  return `${Math.max(Number(range.first.slice(0, 4)) + 1, Number(range.last.slice(0, 4)) - years)}-01-01`;
}
