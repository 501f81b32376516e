import { z } from 'zod';
import { isIsoDate } from '../dates';
import {
  AsOfQuery,
  CompanyIdParam,
  FormatQuery,
  IsoDateSchema,
  named,
  PermatickerParam,
  type ApiOperation,
  type Fits,
  NOT_MODIFIED,
} from '../http/api-contract';
import { SecurityJson } from '../market/store/security-json';
import type { CompanyProfile, CompanySearchHit } from './companies.server';
import { SEARCH_LIMIT_MAX } from './companies.server';
import type { CompanyHeader, ChartData, Dividends, FilingRow } from './company-pages.server';
import { PERIOD_IDS, STATEMENT_IDS, type Statement } from './financials';
import type { CorporateAction, PricePoint, PriceSeries } from './prices.server';
import { RANGES } from './price-ranges';
import type { ValuationSeries } from './valuation.server';
import { VALUATION_METRICS } from './valuation-history';

// The company part of the JSON API: search, profile, prices and the tabs of the company page
// (overview, chart, financials, dividends, valuation), each tab's table also as CSV.

const isoDate = z.string().refine(isIsoDate, 'Must be a date as YYYY-MM-DD.');
const Values = z.record(z.number().nullable()).describe('Metric id → value; null = n/a');

export const CompanyJson = named('Company', SecurityJson.omit({ category: true, currency: true, source: true }));
const _company: Fits<CompanyHeader, typeof CompanyJson> = true;

const SearchHitJson = SecurityJson.pick({
  permaticker: true,
  ticker: true,
  name: true,
  exchange: true,
  sector: true,
  industry: true,
  is_delisted: true,
  is_demo: true,
})
  .extend({
    match: z.string().describe('Why it matched: ticker, former_ticker, ticker_prefix, name_prefix, name_word, name, ticker_contains'),
  })
  .strict();
const _hit: Fits<CompanySearchHit, typeof SearchHitJson> = true;

const FilingJson = z
  .object({
    form: z.string().nullable(),
    filed: IsoDateSchema,
    accession: z.string().nullable(),
    period_end: IsoDateSchema,
    url: z.string().nullable().describe('The filing on SEC EDGAR (null for demo data)'),
  })
  .strict();
const _filing: Fits<FilingRow, typeof FilingJson> = true;

const ProfileJson = SecurityJson.extend({
  tickers: z.array(z.object({ ticker: z.string(), start_date: IsoDateSchema.nullable(), end_date: IsoDateSchema.nullable() }).strict()),
  latest_price: z
    .object({ date: IsoDateSchema, close: z.number(), close_unadj: z.number().nullable(), volume: z.number().nullable() })
    .strict()
    .nullable(),
  filings: z.array(FilingJson.extend({ fiscal_year: z.number().int().nullable(), fiscal_period: z.string().nullable() }).strict()),
}).strict();
const _profile: Fits<CompanyProfile, typeof ProfileJson> = true;

export const PricePointJson = named(
  'PricePoint',
  z
    .object({
      date: IsoDateSchema,
      open: z.number().nullable(),
      high: z.number().nullable(),
      low: z.number().nullable(),
      close: z.number(),
      volume: z.number().nullable(),
      total_return_index: z.number().nullable(),
    })
    .strict(),
);
const _price: Fits<PricePoint, typeof PricePointJson> = true;

const ActionJson = z
  .object({ date: IsoDateSchema, action: z.string(), value: z.number().nullable(), detail: z.string().nullable(), source: z.string() })
  .strict();
const _action: Fits<CorporateAction, typeof ActionJson> = true;

const PriceSeriesJson = z
  .object({
    permaticker: z.number().int(),
    ticker: z.string(),
    adjusted: z.boolean(),
    from: IsoDateSchema.nullable(),
    to: IsoDateSchema.nullable(),
    prices: z.array(PricePointJson),
    actions: z.array(ActionJson),
  })
  .strict();
const _series: Fits<PriceSeries, typeof PriceSeriesJson> = true;

const ChartJson = z
  .object({
    end: IsoDateSchema.nullable(),
    from: IsoDateSchema.nullable(),
    prices: z.array(PricePointJson),
    sma50: z.array(z.number().nullable()),
    sma200: z.array(z.number().nullable()),
  })
  .strict();
const _chart: Fits<ChartData, typeof ChartJson> = true;

const STATEMENT = z.enum(STATEMENT_IDS as ['income', 'balance', 'cash_flow']);
const PERIOD = z.enum(PERIOD_IDS as ['annual', 'quarterly', 'ttm']);

const CellJson = z
  .object({
    value: z.number(),
    filed: IsoDateSchema,
    accession: z.string().nullable(),
    form: z.string().nullable(),
    url: z.string().nullable(),
    derived: z
      .boolean()
      .describe(
        'Computed, not a value as filed: Q4 = the latest fiscal year known minus the latest nine months known, TTM = four quarters, free cash flow',
      ),
    reported: z
      .number()
      .nullable()
      .describe(
        'The value as filed; per-share values and share counts in `value` are adjusted for splits to the as-of date. Null when derived',
      ),
    decimals: z
      .number()
      .int()
      .describe(
        'Decimal places the value is given to, as reported (−6: millions). SEC companyfacts carry no XBRL decimals, so a filed value keeps the precision of its filing (the finest among its values of one unit); a split adjustment adds the digits the ratio moves (÷28: two); a derived value is rounded to the coarsest precision of its parts',
      ),
    derivation: z
      .string()
      .nullable()
      .describe(
        'How a derived value was computed: "FY − 9M" (fiscal year minus the nine months to date), "FY − Q1 − Q2 − Q3" (only when no nine-month figure was filed), "6M − Q1", "9M − 6M", "FY average", "sum of 4 quarters", "mean of 4 quarters", "operating cash flow − capex". Null when filed',
      ),
  })
  .strict();
const RatioRowJson = z.object({ id: z.string(), label: z.string(), values: z.array(z.number().nullable()) }).strict();
const StatementJson = named(
  'Statement',
  z
    .object({
      statement: STATEMENT,
      period: PERIOD,
      columns: z.array(z.object({ key: IsoDateSchema, label: z.string(), periodEnd: IsoDateSchema }).strict()),
      lines: z.array(z.object({ id: z.string(), label: z.string(), unit: z.string(), cells: z.array(CellJson.nullable()) }).strict()),
      growth: z.array(RatioRowJson),
      margins: z.array(RatioRowJson),
    })
    .strict(),
);
const _statement: Fits<Statement, typeof StatementJson> = true;

const DividendsJson = z
  .object({
    history: z.array(z.object({ date: IsoDateSchema, amount: z.number(), adjusted: z.number() }).strict()),
    annual: z.array(
      z.object({ year: z.number().int(), total: z.number(), payments: z.number().int(), growth: z.number().nullable() }).strict(),
    ),
    splits: z.array(z.object({ date: IsoDateSchema, ratio: z.number() }).strict()),
  })
  .strict();
const _dividends: Fits<Omit<Dividends, 'metrics'>, typeof DividendsJson> = true;

const ValuationSeriesJson = z
  .object({
    metric: z.enum(VALUATION_METRICS),
    points: z.array(z.object({ date: IsoDateSchema, company: z.number().nullable(), sectorMedian: z.number().nullable() }).strict()),
    current: z.number().nullable(),
    fiveYearAverage: z.number().nullable(),
    sectorMedian: z.number().nullable(),
  })
  .strict();
const _valuation: Fits<ValuationSeries, typeof ValuationSeriesJson> = true;

// Queries as the routes parse them.

export const CompaniesQuery = z.object({
  query: z.string().max(100, 'At most 100 characters.').default(''),
  limit: z.coerce.number().int('Must be a whole number.').min(1).max(SEARCH_LIMIT_MAX).default(20),
});

export const PricesQuery = z
  .object({
    from: isoDate.optional(),
    to: isoDate.optional(),
    adjusted: z
      .enum(['true', 'false', '1', '0'], { errorMap: () => ({ message: 'Must be true or false.' }) })
      .default('true')
      .transform((v) => v === 'true' || v === '1')
      .describe('Split-adjusted prices (default), or prices as traded'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '`from` must not be after `to`.', path: ['from'] });

export const CompanyPricesQuery = z.object({ range: z.enum(RANGES).default('1Y'), adjusted: z.enum(['1', '0']).default('1') });

export const FinancialsQuery = z.object({ statement: STATEMENT.default('income'), period: PERIOD.default('annual') });

const TabQuery = AsOfQuery.merge(FormatQuery);
const AsOf = { as_of: IsoDateSchema.nullable().describe('The as-of date asked for (null: latest)') };

export const COMPANY_API: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/companies',
    summary: 'Search companies by ticker or name (exact ticker first)',
    access: 'rules',
    query: CompaniesQuery,
    answers: {
      200: { description: 'Best match first', json: z.object({ query: z.string(), results: z.array(SearchHitJson) }).strict() },
      304: NOT_MODIFIED,
    },
  },
  {
    method: 'get',
    path: '/api/v1/companies/{id}',
    summary: 'Company profile: security, ticker history, latest price, recent filings',
    access: 'rules',
    params: CompanyIdParam,
    answers: { 200: { description: 'The profile', json: ProfileJson }, 304: NOT_MODIFIED },
  },
  {
    method: 'get',
    path: '/api/v1/prices/{permaticker}',
    summary: 'Daily prices and corporate actions',
    access: 'rules',
    params: PermatickerParam,
    query: PricesQuery,
    answers: { 200: { description: 'Prices, oldest first, and actions', json: PriceSeriesJson }, 304: NOT_MODIFIED },
  },
  {
    method: 'get',
    path: '/api/v1/company-overview/{id}',
    summary: 'Overview tab: key figures, 12 months of prices, filings known on the as-of date',
    access: 'rules',
    params: CompanyIdParam,
    query: TabQuery,
    answers: {
      200: {
        description: 'The overview (CSV: the filings)',
        csv: true,
        json: z
          .object({
            company: CompanyJson,
            ...AsOf,
            date: IsoDateSchema.nullable().describe('Trading day of the figures'),
            metrics: Values,
            prices: z.array(PricePointJson),
            filings: z.array(FilingJson),
          })
          .strict(),
      },
      304: NOT_MODIFIED,
    },
  },
  {
    method: 'get',
    path: '/api/v1/company-prices/{id}',
    summary: 'Chart tab: prices with 50- and 200-day moving averages',
    access: 'rules',
    params: CompanyIdParam,
    query: TabQuery.merge(CompanyPricesQuery),
    answers: {
      200: {
        description: 'The chart’s table',
        csv: true,
        json: ChartJson.extend({ company: CompanyJson, ...AsOf, range: z.enum(RANGES), adjusted: z.boolean() }).strict(),
      },
      304: NOT_MODIFIED,
    },
  },
  {
    method: 'get',
    path: '/api/v1/financials/{id}',
    summary: 'Financial statements with the filing of every value',
    access: 'rules',
    params: CompanyIdParam,
    query: TabQuery.merge(FinancialsQuery),
    answers: {
      200: {
        description: 'The statement (CSV: one row per line and period)',
        csv: true,
        json: z.object({ company: CompanyJson, ...AsOf, statement: StatementJson }).strict(),
      },
      304: NOT_MODIFIED,
    },
  },
  {
    method: 'get',
    path: '/api/v1/dividends/{id}',
    summary: 'Dividend history, annual totals, yield, growth and payout',
    access: 'rules',
    params: CompanyIdParam,
    query: TabQuery,
    answers: {
      200: {
        description: 'Dividends (CSV: the history)',
        csv: true,
        json: DividendsJson.extend({ company: CompanyJson, ...AsOf, date: IsoDateSchema.nullable(), metrics: Values }).strict(),
      },
      304: NOT_MODIFIED,
    },
  },
  {
    method: 'get',
    path: '/api/v1/valuation/{id}',
    summary: 'Valuation multiples over time against their 5-year average and the sector median',
    access: 'rules',
    params: CompanyIdParam,
    query: TabQuery,
    answers: {
      200: {
        description: 'The multiples (CSV: one row per metric and date)',
        csv: true,
        json: z
          .object({
            company: CompanyJson,
            ...AsOf,
            snapshot_date: IsoDateSchema.nullable(),
            sector: z.string().nullable(),
            series: z.array(ValuationSeriesJson),
          })
          .strict(),
      },
      304: NOT_MODIFIED,
    },
  },
];
