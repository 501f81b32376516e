import { addMonths, type IsoDate } from '../dates';
import { notFound } from '../http/errors';
import { getMetric, type MetricDefinition } from '../metrics/catalogue';
import { companyMetricSeries } from '../metrics/company-metrics.server';
import {
  alignSeries,
  alignSources,
  companyList,
  type BrowserMode,
  type SeriesInput,
  type TableRow,
  type ValueSource,
} from './data-browser';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import type { SecurityColumns } from '../market/store/security';
import { COMPANY_FILINGS_TABLE } from '../market/store/filings-table.server';
import { storeHasTable } from '../market/store/tables.server';
import { filingArchiveUrl } from '../market/sec-links';
import { cachedAnswer } from '../market/store/answer-cache.server';

// The data browser's table: one metric for up to ten companies, in one fact mode and range.
// The page, its JSON endpoint and its CSV download all come from here, so they show the same rows.

export type BrowserCompany = Pick<SecurityColumns, 'permaticker' | 'ticker' | 'name' | 'is_demo'>;
export type BrowserData = {
  metric: MetricDefinition;
  companies: BrowserCompany[];
  missing: number[];
  dropped: number;
  from: IsoDate | null;
  to: IsoDate | null;
  series: SeriesInput[];
  rows: TableRow[];
  /** Per row and company, the filing its value comes from (null for price-only values). */
  filings: (ValueFiling | null)[][];
};

/** A value's filing: its form, and the SEC archive address when the accession is a real one. */
export type ValueFiling = ValueSource & { form: string | null; url: string | null };

export async function browserCompanies(permatickers: readonly number[], options: MarketReadOptions = {}): Promise<BrowserCompany[]> {
  if (permatickers.length === 0) return [];
  const reader = await readMarket(options);
  const list = permatickers
    .map((p) => Number(p))
    .filter(Number.isSafeInteger)
    .join(',');
  const rows = await reader.all<BrowserCompany>(`SELECT permaticker, ticker, name, is_demo FROM securities WHERE permaticker IN (${list})`);
  const byId = new Map(rows.map((r) => [r.permaticker, r]));
  return permatickers.map((p) => byId.get(p)).filter((r): r is BrowserCompany => r !== undefined);
}

type BrowserView = { compare: readonly number[]; mode: BrowserMode; from: IsoDate | null; to: IsoDate | null; asOf: IsoDate | null };

/** The data browser's table, kept per store version (answer-cache.server.ts). Shared: do not mutate. */
export async function browseMetric(
  main: number,
  metricId: string,
  view: BrowserView,
  options: MarketReadOptions = {},
): Promise<BrowserData> {
  if (!getMetric(metricId)) throw notFound(`Unknown metric: ${metricId}`);
  const reader = await readMarket(options);
  return cachedAnswer(reader.file, ['browse', main, metricId, view.compare.join(','), view.mode, view.from, view.to, view.asOf], () =>
    readBrowser(main, metricId, view, options),
  );
}

async function readBrowser(main: number, metricId: string, view: BrowserView, options: MarketReadOptions): Promise<BrowserData> {
  const metric = getMetric(metricId);
  if (!metric) throw notFound(`Unknown metric: ${metricId}`);
  const { list, dropped } = companyList(main, view.compare);
  const companies = await browserCompanies(list, options);
  if (!companies.some((c) => c.permaticker === main)) throw notFound(`Unknown security: ${main}`);
  const missing = list.filter((p) => !companies.some((c) => c.permaticker === p));
  // Daily metrics default to one year so the table stays readable; filing metrics show all.
  let from = view.from;
  if (!from && metric.frequency === 'daily') {
    const reader = await readMarket(options);
    const [r] = await reader.all<{ last: IsoDate | null }>(
      `SELECT max(date) AS last FROM prices WHERE permaticker = $1 ${view.to ? 'AND date <= $2::DATE' : ''}`,
      view.to ? [main, view.to] : [main],
    );
    if (r?.last) from = addMonths(r.last, -12);
  }
  const series: SeriesInput[] = [];
  for (const c of companies) {
    const points = await companyMetricSeries(c.permaticker, metricId, { from, to: view.to, asOf: view.asOf, mode: view.mode }, options);
    series.push({ permaticker: c.permaticker, ticker: c.ticker, points });
  }
  const filings = await valueFilings(companies, series, options);
  return { metric, companies, missing, dropped, from, to: view.to, series, rows: alignSeries(series), filings };
}

/** alignSources' filings with their forms and SEC links, read from the companies' filings. */
async function valueFilings(
  companies: readonly BrowserCompany[],
  series: readonly SeriesInput[],
  options: MarketReadOptions,
): Promise<(ValueFiling | null)[][]> {
  const sources = alignSources(series);
  if (!sources.some((row) => row.some((s) => s !== null))) return sources.map((row) => row.map(() => null));
  const reader = await readMarket(options);
  const list = companies.map((c) => Number(c.permaticker)).join(',');
  const from = (await storeHasTable(reader, COMPANY_FILINGS_TABLE)) ? COMPANY_FILINGS_TABLE : 'facts';
  const forms = await reader.all<{ permaticker: number; filed: IsoDate; accession: string | null; form: string | null }>(
    `SELECT DISTINCT permaticker, filed, accession, form FROM ${from} WHERE permaticker IN (${list})`,
  );
  const key = (p: number, filed: IsoDate, accession: string | null) => `${p}|${filed}|${accession ?? ''}`;
  const formOf = new Map(forms.map((f) => [key(Number(f.permaticker), f.filed, f.accession), f.form]));
  const ciks = await reader.all<{ permaticker: number; cik: string | null }>(
    `SELECT permaticker, cik FROM securities WHERE permaticker IN (${list})`,
  );
  const cikOf = new Map(ciks.map((c) => [Number(c.permaticker), c.cik]));
  return sources.map((row) =>
    row.map((s, k) => {
      if (!s) return null;
      const c = companies[k];
      return {
        ...s,
        form: formOf.get(key(c.permaticker, s.filed, s.accession)) ?? null,
        url: filingArchiveUrl(cikOf.get(c.permaticker), s.accession, c.is_demo),
      };
    }),
  );
}
