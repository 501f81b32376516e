import { CONCEPTS, type Concept } from '../market/store/schema';

// The one list of metrics. The screener, the data browser, company pages and
// watchlist columns all read it; the evaluation engine computes exactly these ids. Ids are stable
// snake_case and are part of saved screens and URLs: never rename one, only add.
//
// Values are plain numbers in their unit: percentages as fractions (0.12 = 12 %), money in USD,
// dates as epoch days (format 'date'). Missing inputs give null ("n/a"), never 0.

export type MetricCategory =
  | 'price_volume'
  | 'size'
  | 'valuation'
  | 'growth'
  | 'profitability'
  | 'financial_health'
  | 'dividends'
  | 'technicals'
  | 'per_share'
  | 'income_statement'
  | 'balance_sheet'
  | 'cash_flow'
  | 'filings';

export const CATEGORY_LABELS: Record<MetricCategory, string> = {
  price_volume: 'Price & volume',
  size: 'Size',
  valuation: 'Valuation',
  growth: 'Growth',
  profitability: 'Profitability',
  financial_health: 'Financial health',
  dividends: 'Dividends',
  technicals: 'Technicals',
  per_share: 'Per share',
  income_statement: 'Income statement',
  balance_sheet: 'Balance sheet',
  cash_flow: 'Cash flow',
  filings: 'Filings',
};

export const METRIC_FORMATS = [
  'currency',
  'large_currency',
  'percent',
  'ratio',
  'number',
  'integer',
  'shares',
  'date',
  'days',
  'years',
  'score',
] as const;
export type MetricFormat = (typeof METRIC_FORMATS)[number];
export const METRIC_UNITS = [
  'USD',
  'USD/share',
  'shares',
  'fraction',
  'ratio',
  'days',
  'years',
  'score',
  'date',
  'count',
  'index',
] as const;
export type MetricUnit = (typeof METRIC_UNITS)[number];
export const METRIC_FREQUENCIES = ['daily', 'quarterly', 'annual', 'ttm'] as const;
export type MetricFrequency = (typeof METRIC_FREQUENCIES)[number];

export type MetricDefinition = {
  id: string;
  label: string;
  category: MetricCategory;
  unit: MetricUnit;
  format: MetricFormat;
  frequency: MetricFrequency;
  /** Formula and the canonical concepts it reads. */
  definition: string;
  higherIsBetter: boolean | null;
  /** Fundamental concepts the metric reads (empty for price-only metrics). */
  concepts: Concept[];
};

type Def = Omit<MetricDefinition, 'concepts'> & { concepts?: Concept[] };
const m = (d: Def): MetricDefinition => ({ ...d, concepts: d.concepts ?? [] });

// ---------------------------------------------------------------------------------------------
// Raw fundamentals: every concept as its latest quarter, latest fiscal year and (flows) TTM.

const FLOW_CATEGORY: Partial<Record<Concept, MetricCategory>> = {
  operating_cash_flow: 'cash_flow',
  capex: 'cash_flow',
  dividends_paid: 'cash_flow',
  share_buybacks: 'cash_flow',
  depreciation: 'cash_flow',
};

// Costs are better when lower; for the rest of the raw values "better" has no meaning.
const RAW_HIGHER: Partial<Record<Concept, boolean | null>> = {
  revenue: true,
  gross_profit: true,
  operating_income: true,
  net_income: true,
  pretax_income: true,
  eps_basic: true,
  eps_diluted: true,
  operating_cash_flow: true,
  cash: true,
  equity: true,
  retained_earnings: true,
  cost_of_revenue: false,
  interest_expense: false,
  long_term_debt: false,
  short_term_debt: false,
  total_liabilities: false,
};

function rawFormat(c: Concept): { unit: MetricUnit; format: MetricFormat } {
  const unit = CONCEPTS[c].unit;
  if (unit === 'USD/shares') return { unit: 'USD/share', format: 'currency' };
  if (unit === 'shares') return { unit: 'shares', format: 'shares' };
  return { unit: 'USD', format: 'large_currency' };
}

function rawMetrics(): MetricDefinition[] {
  const out: MetricDefinition[] = [];
  for (const c of Object.keys(CONCEPTS) as Concept[]) {
    const info = CONCEPTS[c];
    const { unit, format } = rawFormat(c);
    const higherIsBetter = RAW_HIGHER[c] ?? null;
    if (info.kind === 'flow') {
      const category = FLOW_CATEGORY[c] ?? 'income_statement';
      const ttmRule =
        c === 'shares_diluted_avg'
          ? 'mean of the last four fiscal quarters'
          : 'sum of the last four consecutive fiscal quarters known as of the date (Q4 = fiscal year minus Q1–Q3 when no Q4 was filed)';
      out.push(
        m({
          id: `${c}_ttm`,
          label: `${info.label} (TTM)`,
          category,
          unit,
          format,
          frequency: 'ttm',
          definition: `${info.label}, ${ttmRule}. Concept: ${c}.`,
          higherIsBetter,
          concepts: [c],
        }),
        m({
          id: `${c}_q`,
          label: `${info.label} (last quarter)`,
          category,
          unit,
          format,
          frequency: 'quarterly',
          definition: `${info.label} of the latest fiscal quarter known as of the date. Concept: ${c}.`,
          higherIsBetter,
          concepts: [c],
        }),
        m({
          id: `${c}_fy`,
          label: `${info.label} (last fiscal year)`,
          category,
          unit,
          format,
          frequency: 'annual',
          definition: `${info.label} of the latest fiscal year known as of the date. Concept: ${c}.`,
          higherIsBetter,
          concepts: [c],
        }),
      );
    } else {
      const category = c === 'shares_outstanding' ? 'size' : 'balance_sheet';
      out.push(
        m({
          id: c,
          label: info.label,
          category,
          unit,
          format,
          frequency: 'quarterly',
          definition: `${info.label} at the latest balance-sheet date known as of the date. Concept: ${c}.`,
          higherIsBetter,
          concepts: [c],
        }),
        m({
          id: `${c}_fy`,
          label: `${info.label} (fiscal year end)`,
          category,
          unit,
          format,
          frequency: 'annual',
          definition: `${info.label} at the latest fiscal year end known as of the date. Concept: ${c}.`,
          higherIsBetter,
          concepts: [c],
        }),
      );
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Growth: one family per line item.

const GROWTH_ITEMS: {
  key: string;
  label: string;
  concepts: Concept[];
  source: string;
}[] = [
  {
    key: 'revenue',
    label: 'Revenue',
    concepts: ['revenue'],
    source: 'revenue',
  },
  {
    key: 'gross_profit',
    label: 'Gross profit',
    concepts: ['gross_profit', 'revenue', 'cost_of_revenue'],
    source: 'gross_profit (or revenue − cost_of_revenue)',
  },
  {
    key: 'operating_income',
    label: 'Operating income',
    concepts: ['operating_income'],
    source: 'operating_income',
  },
  {
    key: 'net_income',
    label: 'Net income',
    concepts: ['net_income'],
    source: 'net_income',
  },
  {
    key: 'eps',
    label: 'EPS (diluted)',
    concepts: ['eps_diluted'],
    source: 'eps_diluted',
  },
  {
    key: 'fcf',
    label: 'Free cash flow',
    concepts: ['operating_cash_flow', 'capex'],
    source: 'operating_cash_flow − capex',
  },
  {
    key: 'ocf',
    label: 'Operating cash flow',
    concepts: ['operating_cash_flow'],
    source: 'operating_cash_flow',
  },
];

function growthMetrics(): MetricDefinition[] {
  const out: MetricDefinition[] = [];
  const neg = 'Null when the earlier value is zero or negative (growth from a loss has no meaning).';
  for (const g of GROWTH_ITEMS) {
    const base = {
      category: 'growth' as const,
      unit: 'fraction' as const,
      format: 'percent' as const,
      higherIsBetter: true,
      concepts: g.concepts,
    };
    out.push(
      m({
        ...base,
        id: `${g.key}_growth_qoq`,
        label: `${g.label} growth (QoQ)`,
        frequency: 'quarterly',
        definition: `Latest quarter / previous quarter − 1, of ${g.source}. ${neg}`,
      }),
      m({
        ...base,
        id: `${g.key}_growth_yoy_q`,
        label: `${g.label} growth (quarter YoY)`,
        frequency: 'quarterly',
        definition: `Latest quarter / same quarter a year earlier − 1, of ${g.source}. ${neg}`,
      }),
      m({
        ...base,
        id: `${g.key}_growth_yoy`,
        label: `${g.label} growth (TTM YoY)`,
        frequency: 'ttm',
        definition: `TTM / TTM a year earlier − 1, of ${g.source}. ${neg}`,
      }),
      m({
        ...base,
        id: `${g.key}_cagr_3y`,
        label: `${g.label} growth (3-year CAGR)`,
        frequency: 'ttm',
        definition: `(TTM / TTM three years earlier)^(1/3) − 1, of ${g.source}. Null unless both are positive.`,
      }),
      m({
        ...base,
        id: `${g.key}_cagr_5y`,
        label: `${g.label} growth (5-year CAGR)`,
        frequency: 'ttm',
        definition: `(TTM / TTM five years earlier)^(1/5) − 1, of ${g.source}. Null unless both are positive.`,
      }),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Hand-written metrics.

const pct = { unit: 'fraction', format: 'percent' } as const;
const ratio = { unit: 'ratio', format: 'ratio' } as const;
const usd = { unit: 'USD', format: 'large_currency' } as const;
const px = { unit: 'USD/share', format: 'currency' } as const;

const MCAP = 'market_cap = price × shares_outstanding (latest known, adjusted for splits since its balance-sheet date)';

const CORE: MetricDefinition[] = [
  // Price & volume
  m({
    id: 'price',
    label: 'Price',
    category: 'price_volume',
    ...px,
    frequency: 'daily',
    definition: 'Closing price as traded on the date (last close on or before it).',
    higherIsBetter: null,
  }),
  m({
    id: 'price_change_1d',
    label: 'Change (1 day)',
    category: 'price_volume',
    ...pct,
    frequency: 'daily',
    definition: 'Total return over the last trading day (total-return index).',
    higherIsBetter: true,
  }),
  m({
    id: 'volume',
    label: 'Volume',
    category: 'price_volume',
    unit: 'shares',
    format: 'shares',
    frequency: 'daily',
    definition: 'Shares traded on the last trading day.',
    higherIsBetter: null,
  }),
  m({
    id: 'dollar_volume',
    label: 'Dollar volume',
    category: 'price_volume',
    ...usd,
    frequency: 'daily',
    definition: 'price × volume of the last trading day.',
    higherIsBetter: null,
  }),
  m({
    id: 'avg_volume_20d',
    label: 'Average volume (20 days)',
    category: 'price_volume',
    unit: 'shares',
    format: 'shares',
    frequency: 'daily',
    definition: 'Mean volume of the last 20 trading days (split-adjusted to today’s shares).',
    higherIsBetter: null,
  }),
  m({
    id: 'avg_volume_50d',
    label: 'Average volume (50 days)',
    category: 'price_volume',
    unit: 'shares',
    format: 'shares',
    frequency: 'daily',
    definition: 'Mean volume of the last 50 trading days.',
    higherIsBetter: null,
  }),
  m({
    id: 'avg_volume_3m',
    label: 'Average volume (3 months)',
    category: 'price_volume',
    unit: 'shares',
    format: 'shares',
    frequency: 'daily',
    definition: 'Mean volume of the last 63 trading days.',
    higherIsBetter: null,
  }),
  m({
    id: 'avg_dollar_volume_20d',
    label: 'Average dollar volume (20 days)',
    category: 'price_volume',
    ...usd,
    frequency: 'daily',
    definition: 'Mean of price × volume over the last 20 trading days.',
    higherIsBetter: null,
  }),
  m({
    id: 'relative_volume',
    label: 'Relative volume',
    category: 'price_volume',
    ...ratio,
    frequency: 'daily',
    definition: 'volume / avg_volume_20d.',
    higherIsBetter: null,
  }),
  m({
    id: 'high_52w',
    label: '52-week high',
    category: 'price_volume',
    ...px,
    frequency: 'daily',
    definition: 'Highest close of the last 252 trading days, or since listing when fewer (split-adjusted to today’s shares).',
    higherIsBetter: null,
  }),
  m({
    id: 'low_52w',
    label: '52-week low',
    category: 'price_volume',
    ...px,
    frequency: 'daily',
    definition: 'Lowest close of the last 252 trading days, or since listing when fewer (split-adjusted to today’s shares).',
    higherIsBetter: null,
  }),
  m({
    id: 'trading_days',
    label: 'Trading days of history',
    category: 'price_volume',
    unit: 'count',
    format: 'integer',
    frequency: 'daily',
    definition: 'Number of trading days with a price up to the date.',
    higherIsBetter: null,
  }),

  // Size
  m({
    id: 'market_cap',
    label: 'Market cap',
    category: 'size',
    ...usd,
    frequency: 'daily',
    definition: `${MCAP}.`,
    higherIsBetter: null,
    concepts: ['shares_outstanding'],
  }),
  m({
    id: 'enterprise_value',
    label: 'Enterprise value',
    category: 'size',
    ...usd,
    frequency: 'daily',
    definition: 'market_cap + total_debt − cash.',
    higherIsBetter: null,
    concepts: ['shares_outstanding', 'long_term_debt', 'short_term_debt', 'cash'],
  }),
  m({
    id: 'shares_outstanding_adj',
    label: 'Shares outstanding (split-adjusted)',
    category: 'size',
    unit: 'shares',
    format: 'shares',
    frequency: 'daily',
    definition: 'shares_outstanding restated to the share count after any split since the balance-sheet date.',
    higherIsBetter: null,
    concepts: ['shares_outstanding'],
  }),

  // Valuation
  m({
    id: 'pe_ttm',
    label: 'P/E (TTM)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'market_cap / net_income_ttm. Null when net income is zero or negative.',
    higherIsBetter: false,
    concepts: ['net_income', 'shares_outstanding'],
  }),
  m({
    id: 'pe_fy',
    label: 'P/E (last fiscal year)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'market_cap / net_income_fy. Null when net income is zero or negative.',
    higherIsBetter: false,
    concepts: ['net_income', 'shares_outstanding'],
  }),
  m({
    id: 'ps_ttm',
    label: 'P/S (TTM)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'market_cap / revenue_ttm. Null when revenue is zero or negative.',
    higherIsBetter: false,
    concepts: ['revenue', 'shares_outstanding'],
  }),
  m({
    id: 'pb',
    label: 'P/B',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'market_cap / equity. Null when equity is zero or negative.',
    higherIsBetter: false,
    concepts: ['equity', 'shares_outstanding'],
  }),
  m({
    id: 'pcf_ttm',
    label: 'Price / operating cash flow (TTM)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'market_cap / operating_cash_flow_ttm. Null when cash flow is zero or negative.',
    higherIsBetter: false,
    concepts: ['operating_cash_flow', 'shares_outstanding'],
  }),
  m({
    id: 'pfcf_ttm',
    label: 'Price / free cash flow (TTM)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'market_cap / fcf_ttm. Null when FCF is zero or negative.',
    higherIsBetter: false,
    concepts: ['operating_cash_flow', 'capex', 'shares_outstanding'],
  }),
  m({
    id: 'ev_sales_ttm',
    label: 'EV / Sales (TTM)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'enterprise_value / revenue_ttm. Null when revenue is zero or negative.',
    higherIsBetter: false,
    concepts: ['revenue'],
  }),
  m({
    id: 'ev_ebitda_ttm',
    label: 'EV / EBITDA (TTM)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'enterprise_value / ebitda_ttm. Null when EBITDA is zero or negative.',
    higherIsBetter: false,
    concepts: ['operating_income', 'depreciation'],
  }),
  m({
    id: 'ev_ebit_ttm',
    label: 'EV / EBIT (TTM)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'enterprise_value / operating_income_ttm. Null when EBIT is zero or negative.',
    higherIsBetter: false,
    concepts: ['operating_income'],
  }),
  m({
    id: 'ev_fcf_ttm',
    label: 'EV / FCF (TTM)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'enterprise_value / fcf_ttm. Null when FCF is zero or negative.',
    higherIsBetter: false,
    concepts: ['operating_cash_flow', 'capex'],
  }),
  m({
    id: 'ev_gross_profit_ttm',
    label: 'EV / Gross profit (TTM)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'enterprise_value / gross_profit_ttm. Null when gross profit is zero or negative.',
    higherIsBetter: false,
    concepts: ['gross_profit'],
  }),
  m({
    id: 'earnings_yield',
    label: 'Earnings yield',
    category: 'valuation',
    ...pct,
    frequency: 'daily',
    definition: 'net_income_ttm / market_cap.',
    higherIsBetter: true,
    concepts: ['net_income'],
  }),
  m({
    id: 'ebit_ev_yield',
    label: 'EBIT / EV',
    category: 'valuation',
    ...pct,
    frequency: 'daily',
    definition: 'operating_income_ttm / enterprise_value (null when EV ≤ 0).',
    higherIsBetter: true,
    concepts: ['operating_income'],
  }),
  m({
    id: 'fcf_yield',
    label: 'FCF yield',
    category: 'valuation',
    ...pct,
    frequency: 'daily',
    definition: 'fcf_ttm / market_cap.',
    higherIsBetter: true,
    concepts: ['operating_cash_flow', 'capex'],
  }),
  m({
    id: 'sales_yield',
    label: 'Sales yield',
    category: 'valuation',
    ...pct,
    frequency: 'daily',
    definition: 'revenue_ttm / market_cap.',
    higherIsBetter: true,
    concepts: ['revenue'],
  }),
  m({
    id: 'book_to_market',
    label: 'Book to market',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'equity / market_cap.',
    higherIsBetter: true,
    concepts: ['equity'],
  }),
  m({
    id: 'peg_3y',
    label: 'PEG (3-year EPS growth)',
    category: 'valuation',
    ...ratio,
    frequency: 'daily',
    definition: 'pe_ttm / (eps_cagr_3y × 100). Null when growth ≤ 0.',
    higherIsBetter: false,
    concepts: ['eps_diluted', 'net_income'],
  }),
  m({
    id: 'cash_to_market_cap',
    label: 'Cash / market cap',
    category: 'valuation',
    ...pct,
    frequency: 'daily',
    definition: 'cash / market_cap.',
    higherIsBetter: true,
    concepts: ['cash'],
  }),

  // Profitability
  m({
    id: 'gross_margin',
    label: 'Gross margin (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'gross_profit_ttm / revenue_ttm (gross profit = revenue − cost_of_revenue when not filed).',
    higherIsBetter: true,
    concepts: ['gross_profit', 'revenue', 'cost_of_revenue'],
  }),
  m({
    id: 'operating_margin',
    label: 'Operating margin (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'operating_income_ttm / revenue_ttm.',
    higherIsBetter: true,
    concepts: ['operating_income', 'revenue'],
  }),
  m({
    id: 'net_margin',
    label: 'Net margin (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'net_income_ttm / revenue_ttm.',
    higherIsBetter: true,
    concepts: ['net_income', 'revenue'],
  }),
  m({
    id: 'pretax_margin',
    label: 'Pre-tax margin (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'pretax_income_ttm / revenue_ttm.',
    higherIsBetter: true,
    concepts: ['pretax_income', 'revenue'],
  }),
  m({
    id: 'ebitda_margin',
    label: 'EBITDA margin (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'ebitda_ttm / revenue_ttm.',
    higherIsBetter: true,
    concepts: ['operating_income', 'depreciation', 'revenue'],
  }),
  m({
    id: 'fcf_margin',
    label: 'FCF margin (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'fcf_ttm / revenue_ttm.',
    higherIsBetter: true,
    concepts: ['operating_cash_flow', 'capex', 'revenue'],
  }),
  m({
    id: 'ocf_margin',
    label: 'Operating cash flow margin (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'operating_cash_flow_ttm / revenue_ttm.',
    higherIsBetter: true,
    concepts: ['operating_cash_flow', 'revenue'],
  }),
  m({
    id: 'gross_margin_q',
    label: 'Gross margin (last quarter)',
    category: 'profitability',
    ...pct,
    frequency: 'quarterly',
    definition: 'gross_profit_q / revenue_q.',
    higherIsBetter: true,
    concepts: ['gross_profit', 'revenue'],
  }),
  m({
    id: 'operating_margin_q',
    label: 'Operating margin (last quarter)',
    category: 'profitability',
    ...pct,
    frequency: 'quarterly',
    definition: 'operating_income_q / revenue_q.',
    higherIsBetter: true,
    concepts: ['operating_income', 'revenue'],
  }),
  m({
    id: 'net_margin_q',
    label: 'Net margin (last quarter)',
    category: 'profitability',
    ...pct,
    frequency: 'quarterly',
    definition: 'net_income_q / revenue_q.',
    higherIsBetter: true,
    concepts: ['net_income', 'revenue'],
  }),
  m({
    id: 'gross_margin_fy',
    label: 'Gross margin (last fiscal year)',
    category: 'profitability',
    ...pct,
    frequency: 'annual',
    definition: 'gross_profit_fy / revenue_fy.',
    higherIsBetter: true,
    concepts: ['gross_profit', 'revenue'],
  }),
  m({
    id: 'net_margin_fy',
    label: 'Net margin (last fiscal year)',
    category: 'profitability',
    ...pct,
    frequency: 'annual',
    definition: 'net_income_fy / revenue_fy.',
    higherIsBetter: true,
    concepts: ['net_income', 'revenue'],
  }),
  m({
    id: 'roe',
    label: 'Return on equity (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'net_income_ttm / equity (latest). Null when equity ≤ 0.',
    higherIsBetter: true,
    concepts: ['net_income', 'equity'],
  }),
  m({
    id: 'roa',
    label: 'Return on assets (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'net_income_ttm / total_assets (latest).',
    higherIsBetter: true,
    concepts: ['net_income', 'total_assets'],
  }),
  m({
    id: 'roic',
    label: 'Return on invested capital (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition:
      'operating_income_ttm × (1 − tax_rate) / (equity + total_debt − cash); tax_rate is the effective rate clamped to 0–50 %, 21 % when pre-tax income ≤ 0 or tax is not filed. Null when invested capital ≤ 0.',
    higherIsBetter: true,
    concepts: ['operating_income', 'income_tax', 'pretax_income', 'equity', 'long_term_debt', 'short_term_debt', 'cash'],
  }),
  m({
    id: 'roce',
    label: 'Return on capital employed (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'operating_income_ttm / (total_assets − current_liabilities).',
    higherIsBetter: true,
    concepts: ['operating_income', 'total_assets', 'current_liabilities'],
  }),
  m({
    id: 'asset_turnover',
    label: 'Asset turnover (TTM)',
    category: 'profitability',
    ...ratio,
    frequency: 'ttm',
    definition: 'revenue_ttm / total_assets.',
    higherIsBetter: true,
    concepts: ['revenue', 'total_assets'],
  }),
  m({
    id: 'tax_rate',
    label: 'Effective tax rate (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'income_tax_ttm / pretax_income_ttm. Null when pre-tax income ≤ 0.',
    higherIsBetter: null,
    concepts: ['income_tax', 'pretax_income'],
  }),
  m({
    id: 'rnd_to_revenue',
    label: 'R&D / revenue (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'rnd_ttm / revenue_ttm.',
    higherIsBetter: null,
    concepts: ['rnd', 'revenue'],
  }),
  m({
    id: 'sga_to_revenue',
    label: 'SG&A / revenue (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'sga_ttm / revenue_ttm.',
    higherIsBetter: false,
    concepts: ['sga', 'revenue'],
  }),
  m({
    id: 'capex_to_revenue',
    label: 'Capex / revenue (TTM)',
    category: 'profitability',
    ...pct,
    frequency: 'ttm',
    definition: 'capex_ttm / revenue_ttm.',
    higherIsBetter: null,
    concepts: ['capex', 'revenue'],
  }),
  m({
    id: 'cash_conversion',
    label: 'Cash conversion (TTM)',
    category: 'profitability',
    ...ratio,
    frequency: 'ttm',
    definition: 'operating_cash_flow_ttm / net_income_ttm. Null when net income ≤ 0.',
    higherIsBetter: true,
    concepts: ['operating_cash_flow', 'net_income'],
  }),

  // Derived line items
  m({
    id: 'ebitda_ttm',
    label: 'EBITDA (TTM)',
    category: 'income_statement',
    ...usd,
    frequency: 'ttm',
    definition: 'operating_income_ttm + depreciation_ttm.',
    higherIsBetter: true,
    concepts: ['operating_income', 'depreciation'],
  }),
  m({
    id: 'fcf_ttm',
    label: 'Free cash flow (TTM)',
    category: 'cash_flow',
    ...usd,
    frequency: 'ttm',
    definition: 'operating_cash_flow_ttm − capex_ttm (capex as a positive outflow).',
    higherIsBetter: true,
    concepts: ['operating_cash_flow', 'capex'],
  }),
  m({
    id: 'fcf_q',
    label: 'Free cash flow (last quarter)',
    category: 'cash_flow',
    ...usd,
    frequency: 'quarterly',
    definition: 'operating_cash_flow_q − capex_q.',
    higherIsBetter: true,
    concepts: ['operating_cash_flow', 'capex'],
  }),
  m({
    id: 'fcf_fy',
    label: 'Free cash flow (last fiscal year)',
    category: 'cash_flow',
    ...usd,
    frequency: 'annual',
    definition: 'operating_cash_flow_fy − capex_fy.',
    higherIsBetter: true,
    concepts: ['operating_cash_flow', 'capex'],
  }),
  m({
    id: 'total_debt',
    label: 'Total debt',
    category: 'balance_sheet',
    ...usd,
    frequency: 'quarterly',
    definition:
      'long_term_debt + short_term_debt (a component that is not filed counts as none when the other is filed; null when neither is).',
    higherIsBetter: false,
    concepts: ['long_term_debt', 'short_term_debt'],
  }),
  m({
    id: 'net_debt',
    label: 'Net debt',
    category: 'balance_sheet',
    ...usd,
    frequency: 'quarterly',
    definition: 'total_debt − cash.',
    higherIsBetter: false,
    concepts: ['long_term_debt', 'short_term_debt', 'cash'],
  }),
  m({
    id: 'working_capital',
    label: 'Working capital',
    category: 'balance_sheet',
    ...usd,
    frequency: 'quarterly',
    definition: 'current_assets − current_liabilities.',
    higherIsBetter: true,
    concepts: ['current_assets', 'current_liabilities'],
  }),

  // Financial health
  m({
    id: 'debt_to_equity',
    label: 'Debt / equity',
    category: 'financial_health',
    ...ratio,
    frequency: 'quarterly',
    definition: 'total_debt / equity. Null when equity ≤ 0.',
    higherIsBetter: false,
    concepts: ['long_term_debt', 'short_term_debt', 'equity'],
  }),
  m({
    id: 'debt_to_assets',
    label: 'Debt / assets',
    category: 'financial_health',
    ...ratio,
    frequency: 'quarterly',
    definition: 'total_debt / total_assets.',
    higherIsBetter: false,
    concepts: ['long_term_debt', 'short_term_debt', 'total_assets'],
  }),
  m({
    id: 'liabilities_to_equity',
    label: 'Liabilities / equity',
    category: 'financial_health',
    ...ratio,
    frequency: 'quarterly',
    definition: 'total_liabilities / equity. Null when equity ≤ 0.',
    higherIsBetter: false,
    concepts: ['total_liabilities', 'equity'],
  }),
  m({
    id: 'equity_to_assets',
    label: 'Equity / assets',
    category: 'financial_health',
    ...pct,
    frequency: 'quarterly',
    definition: 'equity / total_assets.',
    higherIsBetter: true,
    concepts: ['equity', 'total_assets'],
  }),
  m({
    id: 'current_ratio',
    label: 'Current ratio',
    category: 'financial_health',
    ...ratio,
    frequency: 'quarterly',
    definition: 'current_assets / current_liabilities.',
    higherIsBetter: true,
    concepts: ['current_assets', 'current_liabilities'],
  }),
  m({
    id: 'quick_ratio',
    label: 'Quick ratio',
    category: 'financial_health',
    ...ratio,
    frequency: 'quarterly',
    definition: '(current_assets − inventory) / current_liabilities (inventory not filed counts as none).',
    higherIsBetter: true,
    concepts: ['current_assets', 'inventory', 'current_liabilities'],
  }),
  m({
    id: 'cash_ratio',
    label: 'Cash ratio',
    category: 'financial_health',
    ...ratio,
    frequency: 'quarterly',
    definition: 'cash / current_liabilities.',
    higherIsBetter: true,
    concepts: ['cash', 'current_liabilities'],
  }),
  m({
    id: 'interest_coverage',
    label: 'Interest coverage (TTM)',
    category: 'financial_health',
    ...ratio,
    frequency: 'ttm',
    definition: 'operating_income_ttm / interest_expense_ttm. Null when interest expense ≤ 0.',
    higherIsBetter: true,
    concepts: ['operating_income', 'interest_expense'],
  }),
  m({
    id: 'net_debt_to_ebitda',
    label: 'Net debt / EBITDA (TTM)',
    category: 'financial_health',
    ...ratio,
    frequency: 'ttm',
    definition: 'net_debt / ebitda_ttm. Null when EBITDA ≤ 0.',
    higherIsBetter: false,
    concepts: ['long_term_debt', 'short_term_debt', 'cash', 'operating_income', 'depreciation'],
  }),
  m({
    id: 'ocf_to_debt',
    label: 'Operating cash flow / debt (TTM)',
    category: 'financial_health',
    ...ratio,
    frequency: 'ttm',
    definition: 'operating_cash_flow_ttm / total_debt. Null when debt ≤ 0.',
    higherIsBetter: true,
    concepts: ['operating_cash_flow', 'long_term_debt', 'short_term_debt'],
  }),
  m({
    id: 'altman_z',
    label: 'Altman Z-score',
    category: 'financial_health',
    unit: 'score',
    format: 'number',
    frequency: 'daily',
    definition:
      '1.2·working_capital/total_assets + 1.4·retained_earnings/total_assets + 3.3·operating_income_ttm/total_assets + 0.6·market_cap/total_liabilities + 1.0·revenue_ttm/total_assets. Null when any input is missing.',
    higherIsBetter: true,
    concepts: [
      'current_assets',
      'current_liabilities',
      'retained_earnings',
      'operating_income',
      'total_assets',
      'total_liabilities',
      'revenue',
      'shares_outstanding',
    ],
  }),
  m({
    id: 'piotroski_f',
    label: 'Piotroski F-score',
    category: 'financial_health',
    unit: 'score',
    format: 'integer',
    frequency: 'ttm',
    definition:
      'Sum of nine 0/1 tests, TTM now vs a year earlier: ROA > 0; OCF > 0; ROA up; OCF > net income; long_term_debt/total_assets down; current ratio up; shares_outstanding not up; gross margin up; asset turnover up. Null when any input is missing.',
    higherIsBetter: true,
    concepts: [
      'net_income',
      'operating_cash_flow',
      'total_assets',
      'long_term_debt',
      'current_assets',
      'current_liabilities',
      'shares_outstanding',
      'gross_profit',
      'revenue',
    ],
  }),

  // Per share (in today's shares: restated for splits since the balance-sheet date)
  m({
    id: 'eps_ttm',
    label: 'EPS (diluted, TTM)',
    category: 'per_share',
    ...px,
    frequency: 'ttm',
    definition: 'net_income_ttm / shares_outstanding_adj.',
    higherIsBetter: true,
    concepts: ['net_income', 'shares_outstanding'],
  }),
  m({
    id: 'sales_per_share',
    label: 'Sales per share (TTM)',
    category: 'per_share',
    ...px,
    frequency: 'ttm',
    definition: 'revenue_ttm / shares_outstanding_adj.',
    higherIsBetter: true,
    concepts: ['revenue', 'shares_outstanding'],
  }),
  m({
    id: 'book_value_per_share',
    label: 'Book value per share',
    category: 'per_share',
    ...px,
    frequency: 'quarterly',
    definition: 'equity / shares_outstanding_adj.',
    higherIsBetter: true,
    concepts: ['equity', 'shares_outstanding'],
  }),
  m({
    id: 'fcf_per_share',
    label: 'FCF per share (TTM)',
    category: 'per_share',
    ...px,
    frequency: 'ttm',
    definition: 'fcf_ttm / shares_outstanding_adj.',
    higherIsBetter: true,
    concepts: ['operating_cash_flow', 'capex', 'shares_outstanding'],
  }),
  m({
    id: 'ocf_per_share',
    label: 'Operating cash flow per share (TTM)',
    category: 'per_share',
    ...px,
    frequency: 'ttm',
    definition: 'operating_cash_flow_ttm / shares_outstanding_adj.',
    higherIsBetter: true,
    concepts: ['operating_cash_flow', 'shares_outstanding'],
  }),
  m({
    id: 'cash_per_share',
    label: 'Cash per share',
    category: 'per_share',
    ...px,
    frequency: 'quarterly',
    definition: 'cash / shares_outstanding_adj.',
    higherIsBetter: true,
    concepts: ['cash', 'shares_outstanding'],
  }),
  m({
    id: 'ebitda_per_share',
    label: 'EBITDA per share (TTM)',
    category: 'per_share',
    ...px,
    frequency: 'ttm',
    definition: 'ebitda_ttm / shares_outstanding_adj.',
    higherIsBetter: true,
    concepts: ['operating_income', 'depreciation', 'shares_outstanding'],
  }),

  // Other growth
  m({
    id: 'equity_growth_yoy',
    label: 'Equity growth (YoY)',
    category: 'growth',
    ...pct,
    frequency: 'quarterly',
    definition: 'equity / equity a year earlier − 1. Null when the earlier value ≤ 0.',
    higherIsBetter: true,
    concepts: ['equity'],
  }),
  m({
    id: 'assets_growth_yoy',
    label: 'Total assets growth (YoY)',
    category: 'growth',
    ...pct,
    frequency: 'quarterly',
    definition: 'total_assets / total_assets a year earlier − 1.',
    higherIsBetter: null,
    concepts: ['total_assets'],
  }),
  m({
    id: 'shares_change_yoy',
    label: 'Share count change (YoY)',
    category: 'growth',
    ...pct,
    frequency: 'quarterly',
    definition: 'shares_outstanding / shares_outstanding a year earlier − 1, both restated for splits.',
    higherIsBetter: false,
    concepts: ['shares_outstanding'],
  }),

  // Dividends
  m({
    id: 'dividend_ttm',
    label: 'Dividend per share (TTM)',
    category: 'dividends',
    ...px,
    frequency: 'daily',
    definition: 'Sum of cash dividends per share with ex-date in the last 365 days, restated for splits since.',
    higherIsBetter: true,
  }),
  m({
    id: 'dividend_yield',
    label: 'Dividend yield',
    category: 'dividends',
    ...pct,
    frequency: 'daily',
    definition: 'dividend_ttm / price. Zero for a company that paid none in the last year and has a price.',
    higherIsBetter: true,
  }),
  m({
    id: 'dividend_growth_1y',
    label: 'Dividend growth (1 year)',
    category: 'dividends',
    ...pct,
    frequency: 'daily',
    definition: 'dividend_ttm / dividend per share in the 365 days before that − 1. Null when the earlier sum is zero.',
    higherIsBetter: true,
  }),
  m({
    id: 'dividend_cagr_3y',
    label: 'Dividend growth (3-year CAGR)',
    category: 'dividends',
    ...pct,
    frequency: 'daily',
    definition: '(dividend_ttm / the same sum three years earlier)^(1/3) − 1. Null when the earlier sum is zero.',
    higherIsBetter: true,
  }),
  m({
    id: 'dividend_cagr_5y',
    label: 'Dividend growth (5-year CAGR)',
    category: 'dividends',
    ...pct,
    frequency: 'daily',
    definition: '(dividend_ttm / the same sum five years earlier)^(1/5) − 1. Null when the earlier sum is zero.',
    higherIsBetter: true,
  }),
  m({
    id: 'dividend_growth_streak',
    label: 'Dividend growth streak',
    category: 'dividends',
    unit: 'years',
    format: 'years',
    frequency: 'annual',
    definition:
      'Consecutive complete calendar years (counting back from last year) whose split-adjusted dividends per share exceeded the year before. Null before the first dividend.',
    higherIsBetter: true,
  }),
  m({
    id: 'dividend_paying_streak',
    label: 'Dividend paying streak',
    category: 'dividends',
    unit: 'years',
    format: 'years',
    frequency: 'annual',
    definition:
      'Consecutive complete calendar years (counting back from last year) with at least one cash dividend. Null before the first dividend.',
    higherIsBetter: true,
  }),
  m({
    id: 'payout_ratio',
    label: 'Payout ratio (TTM)',
    category: 'dividends',
    ...pct,
    frequency: 'ttm',
    definition: 'dividends_paid_ttm / net_income_ttm. Null when net income ≤ 0.',
    higherIsBetter: null,
    concepts: ['dividends_paid', 'net_income'],
  }),
  m({
    id: 'fcf_payout_ratio',
    label: 'FCF payout ratio (TTM)',
    category: 'dividends',
    ...pct,
    frequency: 'ttm',
    definition: 'dividends_paid_ttm / fcf_ttm. Null when FCF ≤ 0.',
    higherIsBetter: null,
    concepts: ['dividends_paid', 'operating_cash_flow', 'capex'],
  }),
  m({
    id: 'buyback_yield',
    label: 'Buyback yield (TTM)',
    category: 'dividends',
    ...pct,
    frequency: 'daily',
    definition: 'share_buybacks_ttm / market_cap.',
    higherIsBetter: true,
    concepts: ['share_buybacks'],
  }),
  m({
    id: 'shareholder_yield',
    label: 'Shareholder yield (TTM)',
    category: 'dividends',
    ...pct,
    frequency: 'daily',
    definition: '(dividends_paid_ttm + share_buybacks_ttm) / market_cap (a component not filed counts as none when the other is filed).',
    higherIsBetter: true,
    concepts: ['dividends_paid', 'share_buybacks'],
  }),
  m({
    id: 'last_dividend',
    label: 'Last dividend per share',
    category: 'dividends',
    ...px,
    frequency: 'daily',
    definition: 'The most recent cash dividend per share (ex-date on or before the date), restated for splits since.',
    higherIsBetter: null,
  }),
  m({
    id: 'last_dividend_date',
    label: 'Last ex-dividend date',
    category: 'dividends',
    unit: 'date',
    format: 'date',
    frequency: 'daily',
    definition: 'Ex-date of the most recent cash dividend.',
    higherIsBetter: null,
  }),

  // Filings
  m({
    id: 'last_filed',
    label: 'Last filing date',
    category: 'filings',
    unit: 'date',
    format: 'date',
    frequency: 'quarterly',
    definition: 'Filed date of the newest fact known as of the date (known from the day after filing).',
    higherIsBetter: null,
  }),
  m({
    id: 'last_period_end',
    label: 'Last fiscal period end',
    category: 'filings',
    unit: 'date',
    format: 'date',
    frequency: 'quarterly',
    definition: 'Period end of the latest fiscal quarter known as of the date.',
    higherIsBetter: null,
  }),
  m({
    id: 'days_since_filing',
    label: 'Days since last filing',
    category: 'filings',
    unit: 'days',
    format: 'days',
    frequency: 'daily',
    definition: 'Calendar days from last_filed to the date.',
    higherIsBetter: null,
  }),
];

// ---------------------------------------------------------------------------------------------
// Technicals (all from the split- and dividend-adjusted total-return index or adjusted closes).

const RETURN_WINDOWS: [string, string, number][] = [
  ['ret_1w', '1 week', 5],
  ['ret_1m', '1 month', 21],
  ['ret_3m', '3 months', 63],
  ['ret_6m', '6 months', 126],
  ['ret_12m', '12 months', 252],
  ['ret_2y', '2 years', 504],
  ['ret_3y', '3 years', 756],
  ['ret_5y', '5 years', 1260],
];
export const RETURN_BARS: Record<string, number> = Object.fromEntries(RETURN_WINDOWS.map(([id, , n]) => [id, n]));

export const SMA_WINDOWS = [20, 50, 100, 200] as const;
export const EMA_WINDOWS = [12, 20, 26, 50, 200] as const;

function technicalMetrics(): MetricDefinition[] {
  const t = { category: 'technicals' as const, frequency: 'daily' as const };
  const out: MetricDefinition[] = RETURN_WINDOWS.map(([id, label, n]) =>
    m({
      ...t,
      id,
      label: `Return (${label})`,
      ...pct,
      definition: `Total return over the last ${n} trading days: tri[t] / tri[t−${n}] − 1 (dividends reinvested). Null with less history.`,
      higherIsBetter: true,
    }),
  );
  out.push(
    m({
      ...t,
      id: 'ret_ytd',
      label: 'Return (year to date)',
      ...pct,
      definition: 'Total return since the last close of the previous calendar year.',
      higherIsBetter: true,
    }),
    m({
      ...t,
      id: 'ret_12m_ex_1m',
      label: 'Momentum (12 − 1 months)',
      ...pct,
      definition: 'tri[t−21] / tri[t−252] − 1: the 12-month return skipping the latest month.',
      higherIsBetter: true,
    }),
    m({
      ...t,
      id: 'ret_3y_annualised',
      label: 'Return (3 years, annualised)',
      ...pct,
      definition: '(1 + ret_3y)^(1/3) − 1.',
      higherIsBetter: true,
    }),
    m({
      ...t,
      id: 'ret_5y_annualised',
      label: 'Return (5 years, annualised)',
      ...pct,
      definition: '(1 + ret_5y)^(1/5) − 1.',
      higherIsBetter: true,
    }),
  );
  for (const n of SMA_WINDOWS) {
    out.push(
      m({
        ...t,
        id: `sma${n}`,
        label: `SMA (${n} days)`,
        ...px,
        definition: `Mean adjusted close of the last ${n} trading days, in today’s shares (comparable with price).`,
        higherIsBetter: null,
      }),
      m({
        ...t,
        id: `price_to_sma${n}`,
        label: `Price vs SMA ${n}`,
        ...pct,
        definition: `price / sma${n} − 1.`,
        higherIsBetter: null,
      }),
    );
  }
  for (const n of EMA_WINDOWS) {
    out.push(
      m({
        ...t,
        id: `ema${n}`,
        label: `EMA (${n} days)`,
        ...px,
        definition: `Exponential moving average (α = 2/(${n}+1)) of adjusted closes, seeded with the SMA of the first ${n} closes of the trailing ${TECHNICAL_WARMUP_BARS}-bar window; in today’s shares.`,
        higherIsBetter: null,
      }),
      m({
        ...t,
        id: `price_to_ema${n}`,
        label: `Price vs EMA ${n}`,
        ...pct,
        definition: `price / ema${n} − 1.`,
        higherIsBetter: null,
      }),
    );
  }
  out.push(
    m({
      ...t,
      id: 'sma50_to_sma200',
      label: 'SMA 50 vs SMA 200',
      ...pct,
      definition: 'sma50 / sma200 − 1 (positive after a golden cross).',
      higherIsBetter: null,
    }),
    m({
      ...t,
      id: 'macd',
      label: 'MACD (12, 26)',
      ...px,
      definition: 'ema12 − ema26.',
      higherIsBetter: null,
    }),
    m({
      ...t,
      id: 'macd_pct',
      label: 'MACD (% of price)',
      ...pct,
      definition: '(ema12 − ema26) / price.',
      higherIsBetter: null,
    }),
    m({
      ...t,
      id: 'rsi14',
      label: 'RSI (14 days)',
      unit: 'index',
      format: 'number',
      definition: `Wilder’s relative strength index over 14 days of adjusted closes, 100 − 100/(1 + avg gain / avg loss), smoothed over the trailing ${TECHNICAL_WARMUP_BARS}-bar window.`,
      higherIsBetter: null,
    }),
    m({
      ...t,
      id: 'volatility_1m',
      label: 'Volatility (1 month)',
      ...pct,
      definition: 'Sample standard deviation of the last 21 daily total returns × √252.',
      higherIsBetter: false,
    }),
    m({
      ...t,
      id: 'volatility_3m',
      label: 'Volatility (3 months)',
      ...pct,
      definition: 'Sample standard deviation of the last 63 daily total returns × √252.',
      higherIsBetter: false,
    }),
    m({
      ...t,
      id: 'volatility_1y',
      label: 'Volatility (1 year)',
      ...pct,
      definition: 'Sample standard deviation of the last 252 daily total returns × √252.',
      higherIsBetter: false,
    }),
    m({
      ...t,
      id: 'downside_volatility_1y',
      label: 'Downside volatility (1 year)',
      ...pct,
      definition: '√(mean of min(r, 0)² over the last 252 daily total returns) × √252.',
      higherIsBetter: false,
    }),
    m({
      ...t,
      id: 'beta_1y',
      label: 'Beta (1 year)',
      ...ratio,
      definition: 'cov(r, m) / var(m) of the last 252 daily total returns against the equal-weighted market of the universe.',
      higherIsBetter: null,
    }),
    m({
      ...t,
      id: 'beta_3y',
      label: 'Beta (3 years)',
      ...ratio,
      definition: 'cov(r, m) / var(m) of the last 756 daily total returns against the equal-weighted market of the universe.',
      higherIsBetter: null,
    }),
    m({
      ...t,
      id: 'correlation_1y',
      label: 'Correlation with market (1 year)',
      ...ratio,
      definition: 'Pearson correlation of the last 252 daily total returns with the equal-weighted market.',
      higherIsBetter: null,
    }),
    m({
      ...t,
      id: 'sharpe_1y',
      label: 'Sharpe ratio (1 year)',
      ...ratio,
      definition: 'Mean daily total return × 252 / volatility_1y (risk-free rate 0).',
      higherIsBetter: true,
    }),
    m({
      ...t,
      id: 'max_drawdown_1y',
      label: 'Max drawdown (1 year)',
      ...pct,
      definition: 'Largest peak-to-trough fall of the total-return index over the last 252 trading days (≤ 0).',
      higherIsBetter: true,
    }),
    m({
      ...t,
      id: 'dist_52w_high',
      label: 'Distance from 52-week high',
      ...pct,
      definition: 'price / high_52w − 1 (≤ 0).',
      higherIsBetter: null,
    }),
    m({
      ...t,
      id: 'dist_52w_low',
      label: 'Distance from 52-week low',
      ...pct,
      definition: 'price / low_52w − 1 (≥ 0).',
      higherIsBetter: null,
    }),
    m({
      ...t,
      id: 'days_since_52w_high',
      label: 'Days since 52-week high',
      unit: 'count',
      format: 'integer',
      definition: 'Trading days since the highest close of the last 252.',
      higherIsBetter: false,
    }),
  );
  return out;
}

/** Trailing window for path-dependent indicators (EMA, RSI), so any date gives the same value however much history is loaded. */
export const TECHNICAL_WARMUP_BARS = 400;

export const METRICS: readonly MetricDefinition[] = Object.freeze([...CORE, ...growthMetrics(), ...technicalMetrics(), ...rawMetrics()]);

export const METRIC_IDS: readonly string[] = METRICS.map((d) => d.id);

const BY_ID = new Map(METRICS.map((d) => [d.id, d]));

export function getMetric(id: string): MetricDefinition | undefined {
  return BY_ID.get(id);
}

export function isMetricId(id: string): boolean {
  return BY_ID.has(id);
}

export function metricsByCategory(): {
  category: MetricCategory;
  label: string;
  metrics: MetricDefinition[];
}[] {
  return (Object.keys(CATEGORY_LABELS) as MetricCategory[])
    .map((category) => ({
      category,
      label: CATEGORY_LABELS[category],
      metrics: METRICS.filter((d) => d.category === category),
    }))
    .filter((g) => g.metrics.length > 0);
}
