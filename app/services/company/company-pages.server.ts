import { addDays, addMonths, type IsoDate } from '../dates';
import { notFound } from '../http/errors';
import { resolveCompanyId } from './companies.server';
import { OVERVIEW_GROUPS } from './overview-stats';
import { companyPageMetrics, type MetricsAt } from '../metrics/company-metrics.server';
import { adjustForSplits, annualTotals, type AnnualTotal, type DividendRow } from './dividend-history';
import { buildStatement, type FactInput, type PeriodKind, type Statement, type StatementKind } from './financials';
import { priceSeries, type PricePoint } from './prices.server';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import { COMPANY_FILINGS_TABLE } from '../market/store/filings-table.server';
import { storeHasTable } from '../market/store/tables.server';
import { PromiseLru } from '../market/store/lru';
import { storeVersion } from '../market/store/open-store.server';
import { cachedAnswer } from '../market/store/answer-cache.server';
import type { SecurityColumns } from '../market/store/security';
import { filingArchiveUrl } from '../market/sec-links';
import { movingAverage, rangeStart, type Range } from './price-ranges';

export { type Range } from './price-ranges';

// Data of the company pages (/company/{id}/…), every piece as known on an as-of date.

/** The company every page of /company/{id} shows in its header. */
export type CompanyHeader = Omit<SecurityColumns, 'category' | 'currency' | 'source'>;

/** Company headers kept per store version: every company page and its layout ask for one. */
const headers = new PromiseLru<CompanyHeader>(2_000);

/** The company an id (ticker or permaticker) names; unknown ⇒ 404 DomainError. Shared: do not mutate. */
export async function companyHeader(id: string, options: MarketReadOptions = {}): Promise<CompanyHeader> {
  const reader = await readMarket(options);
  return headers.get(`${storeVersion(reader.file)}|${id}`, () => readCompanyHeader(id, options));
}

async function readCompanyHeader(id: string, options: MarketReadOptions): Promise<CompanyHeader> {
  const permaticker = await resolveCompanyId(id, options);
  if (permaticker === null) throw notFound(`Unknown company: ${id}`);
  const reader = await readMarket(options);
  const [row] = await reader.all<CompanyHeader>(
    `SELECT permaticker, ticker, name, exchange, sector, industry, cik, description, is_delisted, is_demo, first_price_date, last_price_date
       FROM securities WHERE permaticker = $1`,
    [permaticker],
  );
  if (!row) throw notFound(`Unknown company: ${id}`);
  return row;
}

export type FilingRow = { form: string | null; filed: IsoDate; accession: string | null; period_end: IsoDate; url: string | null };

/** Filings known on the as-of date (filed before it), newest first. */
export async function filingsAsOf(
  company: CompanyHeader,
  asOf: IsoDate | null,
  limit = 8,
  options: MarketReadOptions = {},
): Promise<FilingRow[]> {
  const reader = await readMarket(options);
  // The derived filings table holds exactly these groups; a store without it is grouped here.
  const source = (await storeHasTable(reader, COMPANY_FILINGS_TABLE))
    ? COMPANY_FILINGS_TABLE
    : `(SELECT permaticker, form, filed, accession, max(period_end) AS period_end FROM facts WHERE permaticker = $1 GROUP BY ALL)`;
  const rows = await reader.all<Omit<FilingRow, 'url'>>(
    `SELECT form, filed, accession, period_end FROM ${source}
      WHERE permaticker = $1 ${asOf ? 'AND filed < $2::DATE' : ''}
      ORDER BY filed DESC, accession DESC NULLS LAST LIMIT ${Math.max(1, Math.min(100, Math.floor(limit)))}`,
    asOf ? [company.permaticker, asOf] : [company.permaticker],
  );
  return rows.map((r) => ({ ...r, url: filingArchiveUrl(company.cik, r.accession, company.is_demo) }));
}

export const OVERVIEW_METRICS = ['price', 'price_change_1d', 'high_52w', 'low_52w', ...OVERVIEW_GROUPS.flatMap((g) => g.metrics)] as const;

export type Overview = { metrics: MetricsAt; prices: PricePoint[]; filings: FilingRow[] };

/** The overview tab's data, kept per store version (answer-cache.server.ts). Shared: do not mutate. */
export async function companyOverview(company: CompanyHeader, asOf: IsoDate | null, options: MarketReadOptions = {}): Promise<Overview> {
  const reader = await readMarket(options);
  return cachedAnswer(reader.file, ['overview', company.permaticker, asOf], () => readOverview(company, asOf, options));
}

/** What the overview page sends to the browser: its chart needs the closes of the prices only. */
export type OverviewPage = Omit<Overview, 'prices'> & { prices: Pick<PricePoint, 'date' | 'close'>[] };
const overviewPages = new WeakMap<Overview, OverviewPage>();

/**
 * The overview for the page (the JSON API gives the whole `Overview`): the prices without the
 * columns the page does not show, so the data serialized into every page is a third as large.
 * Made once per kept overview (the answer cache shares it). Shared: do not mutate.
 */
export function overviewForPage(overview: Overview): OverviewPage {
  let page = overviewPages.get(overview);
  if (!page) {
    page = { ...overview, prices: overview.prices.map((p) => ({ date: p.date, close: p.close })) };
    overviewPages.set(overview, page);
  }
  return page;
}

async function readOverview(company: CompanyHeader, asOf: IsoDate | null, options: MarketReadOptions): Promise<Overview> {
  const metrics = await companyPageMetrics(company, asOf, OVERVIEW_METRICS, options);
  const end = metrics.date;
  const prices = end
    ? (await priceSeries(company.permaticker, { from: addDays(addMonths(end, -12), 1), to: end, adjusted: true }, options)).prices
    : [];
  const filings = await filingsAsOf(company, asOf, 8, options);
  return { metrics, prices, filings };
}

// -------------------------------------------------------------------------------------------
// Chart tab

export type ChartData = {
  end: IsoDate | null;
  from: IsoDate | null;
  prices: PricePoint[];
  sma50: (number | null)[];
  sma200: (number | null)[];
};

export async function companyChart(
  company: CompanyHeader,
  asOf: IsoDate | null,
  range: Range,
  adjusted: boolean,
  options: MarketReadOptions = {},
): Promise<ChartData> {
  const end = asOf && company.last_price_date && asOf < company.last_price_date ? asOf : company.last_price_date;
  if (!end) return { end: null, from: null, prices: [], sma50: [], sma200: [] };
  const from = rangeStart(range, end);
  // Load 200 extra trading days (~300 calendar days) so the moving averages start full.
  const loadFrom = from ? addDays(from, -300) : null;
  const all = (await priceSeries(company.permaticker, { from: loadFrom ?? undefined, to: end, adjusted }, options)).prices;
  const closes = all.map((p) => p.close);
  const sma50 = movingAverage(closes, 50);
  const sma200 = movingAverage(closes, 200);
  const start = from ? all.findIndex((p) => p.date >= from) : 0;
  const k = start < 0 ? all.length : start;
  return { end, from: from ?? all[0]?.date ?? null, prices: all.slice(k), sma50: sma50.slice(k), sma200: sma200.slice(k) };
}

// -------------------------------------------------------------------------------------------
// Financial tab

/** One statement of the financials tab, kept per store version. Shared: do not mutate. */
export async function companyFinancials(
  company: CompanyHeader,
  asOf: IsoDate | null,
  statement: StatementKind,
  period: PeriodKind,
  options: MarketReadOptions = {},
): Promise<Statement> {
  const reader = await readMarket(options);
  return cachedAnswer(reader.file, ['financials', company.permaticker, asOf, statement, period], () =>
    readFinancials(company, asOf, statement, period, options),
  );
}

async function readFinancials(
  company: CompanyHeader,
  asOf: IsoDate | null,
  statement: StatementKind,
  period: PeriodKind,
  options: MarketReadOptions,
): Promise<Statement> {
  const reader = await readMarket(options);
  const facts = await reader.all<FactInput>(
    `SELECT concept, value, period_start, period_end, fiscal_year, fiscal_period, form, filed, accession, source_tag FROM facts
      WHERE permaticker = $1 ${asOf ? 'AND filed < $2::DATE' : ''} ORDER BY filed, accession`,
    asOf ? [company.permaticker, asOf] : [company.permaticker],
  );
  const splits = await reader.all<{ date: IsoDate; ratio: number }>(
    `SELECT date, value AS ratio FROM corporate_actions WHERE permaticker = $1 AND action = 'split' AND value > 0 ORDER BY date`,
    [company.permaticker],
  );
  return buildStatement(facts, { statement, period, asOf, cik: company.cik, isDemo: company.is_demo, splits });
}

// -------------------------------------------------------------------------------------------
// Dividend tab

export const DIVIDEND_METRICS = [
  'price',
  'dividend_ttm',
  'dividend_yield',
  'dividend_growth_1y',
  'dividend_cagr_3y',
  'dividend_cagr_5y',
  'dividend_growth_streak',
  'dividend_paying_streak',
  'payout_ratio',
  'last_dividend',
  'last_dividend_date',
] as const;

export type Dividends = { metrics: MetricsAt; history: DividendRow[]; annual: AnnualTotal[]; splits: { date: IsoDate; ratio: number }[] };

/** The dividends tab's data, kept per store version. Shared: do not mutate. */
export async function companyDividends(company: CompanyHeader, asOf: IsoDate | null, options: MarketReadOptions = {}): Promise<Dividends> {
  const reader = await readMarket(options);
  return cachedAnswer(reader.file, ['dividends', company.permaticker, asOf], () => readDividends(company, asOf, options));
}

async function readDividends(company: CompanyHeader, asOf: IsoDate | null, options: MarketReadOptions): Promise<Dividends> {
  const reader = await readMarket(options);
  const actions = await reader.all<{ date: IsoDate; action: string; value: number | null }>(
    `SELECT date, action, value FROM corporate_actions
      WHERE permaticker = $1 AND action IN ('dividend', 'split') AND value IS NOT NULL ${asOf ? 'AND date <= $2::DATE' : ''} ORDER BY date`,
    asOf ? [company.permaticker, asOf] : [company.permaticker],
  );
  const splits = actions.filter((a) => a.action === 'split' && (a.value ?? 0) > 0).map((a) => ({ date: a.date, ratio: a.value as number }));
  const history = adjustForSplits(
    actions.filter((a) => a.action === 'dividend').map((a) => ({ date: a.date, amount: a.value as number })),
    splits,
  ).reverse();
  const annual = annualTotals(history);
  const metrics = await companyPageMetrics(company, asOf, DIVIDEND_METRICS, options);
  return { metrics, history, annual, splits };
}
