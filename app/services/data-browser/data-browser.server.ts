import { addMonths, type IsoDate } from '../dates';
import { notFound } from '../http/errors';
import { getMetric, type MetricDefinition } from '../metrics/catalogue';
import { companyMetricSeries } from '../metrics/company-metrics.server';
import { alignSeries, companyList, type BrowserMode, type SeriesInput, type TableRow } from './data-browser';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import type { SecurityColumns } from '../market/store/security';

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
};

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

export async function browseMetric(
  main: number,
  metricId: string,
  view: { compare: readonly number[]; mode: BrowserMode; from: IsoDate | null; to: IsoDate | null; asOf: IsoDate | null },
  options: MarketReadOptions = {},
): Promise<BrowserData> {
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
  return { metric, companies, missing, dropped, from, to: view.to, series, rows: alignSeries(series) };
}
