// Pure: the overview page draws these groups, the overview service loads their metrics.

/** The overview's key statistics, by group (the page shows them as a compact grid). */
export const OVERVIEW_GROUPS = [
  { title: 'Valuation', metrics: ['market_cap', 'enterprise_value', 'pe_ttm', 'ps_ttm', 'pb', 'ev_ebitda_ttm', 'pfcf_ttm', 'peg_3y'] },
  {
    title: 'Growth',
    metrics: ['revenue_growth_yoy', 'revenue_growth_yoy_q', 'equity_growth_yoy', 'assets_growth_yoy', 'shares_change_yoy'],
  },
  { title: 'Profitability', metrics: ['gross_margin', 'operating_margin', 'net_margin', 'roe', 'roic', 'eps_ttm'] },
  { title: 'Financial health', metrics: ['debt_to_equity', 'current_ratio', 'net_debt', 'interest_coverage'] },
  { title: 'Dividends', metrics: ['dividend_yield', 'dividend_ttm', 'payout_ratio', 'dividend_growth_1y', 'dividend_growth_streak'] },
  {
    title: 'Trading',
    metrics: ['volume', 'avg_volume_3m', 'dist_52w_high', 'ret_ytd', 'ret_12m', 'beta_1y', 'volatility_1y'],
  },
] as const;
