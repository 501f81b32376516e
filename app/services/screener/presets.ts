import { ScreenSchema, ruleFromText, type Screen } from './model';

// Starting points on /screener. Plain screens: picking one fills the form, nothing is saved.

export type Preset = { id: string; name: string; description: string; screen: Screen };

function preset(id: string, name: string, description: string, rules: string[], rest: Record<string, unknown>): Preset {
  return { id, name, description, screen: ScreenSchema.parse({ ...rest, rules: rules.map(ruleFromText) }) };
}

export const PRESETS: readonly Preset[] = [
  preset(
    'value',
    'Value',
    'Cheap on earnings and book, profitable, not tiny.',
    ['pe_ttm between 0 and 15', 'pb < 2', 'roe > 0.08', 'market_cap > 300000000'],
    {
      ranking: [
        { metric: 'earnings_yield', direction: 'desc', weight: 1 },
        { metric: 'book_to_market', direction: 'desc', weight: 1 },
      ],
      columns: ['pe_ttm', 'pb', 'roe', 'market_cap'],
    },
  ),
  preset(
    'quality',
    'Quality',
    'High returns on capital, solid margins, little debt.',
    ['roe in top 30% of sector', 'operating_margin > 0.15', 'debt_to_equity < 1', 'piotroski_f >= 6'],
    {
      ranking: [
        { metric: 'roic', direction: 'desc', weight: 2 },
        { metric: 'gross_margin', direction: 'desc', weight: 1 },
      ],
      columns: ['roic', 'gross_margin', 'debt_to_equity'],
    },
  ),
  preset(
    'dividend-growth',
    'Dividend growth',
    'Dividends raised for years, paid out of earnings.',
    ['dividend_yield > 0.02', 'dividend_growth_streak >= 3', 'payout_ratio < 0.8', 'dividend_cagr_3y > 0'],
    {
      ranking: [{ metric: 'dividend_cagr_5y', direction: 'desc', weight: 1 }],
      columns: ['dividend_yield', 'dividend_cagr_3y', 'payout_ratio'],
    },
  ),
  preset(
    'momentum',
    'Momentum',
    'Strong 12−1 month returns above the 200-day average.',
    ['price > sma200', 'ret_12m_ex_1m in top 20% of universe', 'avg_dollar_volume_20d > 1000000'],
    {
      ranking: [{ metric: 'ret_12m_ex_1m', direction: 'desc', weight: 1 }],
      columns: ['ret_12m_ex_1m', 'ret_3m', 'volatility_1y'],
      limit: 50,
    },
  ),
  preset(
    'small-cap-value',
    'Small-cap value',
    'Small companies priced low against sales and earnings.',
    ['market_cap between 50000000 and 2000000000', 'ps_ttm < 1.5', 'pe_ttm between 0 and 20', 'current_ratio > 1'],
    {
      ranking: [{ metric: 'earnings_yield', direction: 'desc', weight: 1 }],
      columns: ['market_cap', 'ps_ttm', 'pe_ttm'],
    },
  ),
];

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
