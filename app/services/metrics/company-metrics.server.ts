import type { DuckDBConnection } from '@duckdb/node-api';
import { fromEpochDay, toEpochDay, type IsoDate } from '../dates';
import { notFound } from '../http/errors';
import { getMetric } from './catalogue';
import { SecurityEvaluator } from './engine/evaluate';
import type { FactMode } from './engine/facts';
import { metricIndex, N_METRICS } from './engine/metric-index';
import { metricSeriesOf, type SeriesPoint } from './engine/series';
import type { MarketReturns } from './engine/types';
import { cachedTradingCalendar, loadBlock, loadMarketReturns, type SecurityRow } from './store-loader.server';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import { storeVersion } from '../market/store/open-store.server';
import { cachedAnswer } from '../market/store/answer-cache.server';
import { rowOf, toNullable } from './engine/snapshot';
import { latestStoredServes, loadSnapshot } from './snapshots.server';
import { snapshotValue } from './snapshot-values';

// Metrics of ONE company, evaluated by the same engine as the screener's snapshots, without
// touching the rest of the universe: a company page as of any date costs one security's history,
// not a universe-wide on-demand snapshot (and not a scan of every price to list securities).

const DAY = `DATE '1970-01-01'`;

async function securityRow(conn: DuckDBConnection, permaticker: number): Promise<SecurityRow | null> {
  const r = await conn.runAndReadAll(
    `SELECT s.is_delisted, datediff('day', ${DAY}, min(p.date))::INTEGER, datediff('day', ${DAY}, max(p.date))::INTEGER
       FROM securities s LEFT JOIN prices p USING (permaticker) WHERE s.permaticker = $1 GROUP BY s.is_delisted`,
    [permaticker],
  );
  const rows = r.getRows();
  if (rows.length === 0) return null;
  const [delisted, first, last] = rows[0];
  return {
    permaticker,
    isDelisted: Boolean(delisted),
    firstDay: first === null ? null : Number(first),
    lastDay: last === null ? null : Number(last),
  };
}

let marketCache: { file: string; market: Promise<MarketReturns | null> } | null = null;
async function market(conn: DuckDBConnection, file: string): Promise<MarketReturns | null> {
  if (marketCache?.file !== file) marketCache = { file, market: loadMarketReturns(conn) };
  return marketCache.market;
}

export type MetricsAt = {
  /** The trading day the values belong to (last one on or before the as-of date); null before listing. */
  date: IsoDate | null;
  values: Record<string, number | null>;
};

/** Catalogue metrics of one company on a date (latest when null), point in time. */
export async function companyMetricsAt(
  permaticker: number,
  asOf: IsoDate | null,
  metricIds: readonly string[],
  options: MarketReadOptions = {},
): Promise<MetricsAt> {
  for (const id of metricIds) if (!getMetric(id)) throw new Error(`Unknown metric ${id}`);
  const reader = await readMarket(options);
  const conn = await reader.connect();
  try {
    const sec = await securityRow(conn, permaticker);
    if (!sec) throw notFound(`Unknown security: ${permaticker}`);
    const empty: MetricsAt = { date: null, values: Object.fromEntries(metricIds.map((id) => [id, null])) };
    if (sec.lastDay === null || sec.firstDay === null) return empty;
    const toDay = asOf ? Math.min(toEpochDay(asOf), sec.lastDay) : sec.lastDay;
    if (toDay < sec.firstDay) return empty;
    const [input] = await loadBlock(conn, [sec], { toDay });
    const ev = new SecurityEvaluator(input, await cachedTradingCalendar(conn, storeVersion(reader.file)));
    const day = input.dates[input.dates.length - 1];
    const row = new Float64Array(N_METRICS);
    const needsMarket = metricIds.some((id) => id.startsWith('beta') || id.startsWith('correlation'));
    if (!ev.evaluateInto(day, row, needsMarket ? await market(conn, reader.file) : null)) return empty;
    const values: Record<string, number | null> = {};
    for (const id of metricIds) {
      const v = row[metricIndex(id)];
      // The precision a stored snapshot keeps, so a page shows the same value whether its date was stored or computed.
      values[id] = Number.isFinite(v) ? snapshotValue(v) : null;
    }
    return { date: fromEpochDay(day), values };
  } finally {
    conn.closeSync();
  }
}

type SeriesRange = { from?: IsoDate | null; to?: IsoDate | null; asOf?: IsoDate | null; mode: FactMode };

/**
 * A metric's history for one company (the data browser), in the chosen fact mode; kept per
 * store version (answer-cache.server.ts), so a repeat is a lookup. Shared: do not mutate.
 */
export async function companyMetricSeries(
  permaticker: number,
  metricId: string,
  opts: SeriesRange,
  options: MarketReadOptions = {},
): Promise<SeriesPoint[]> {
  if (!getMetric(metricId)) throw notFound(`Unknown metric: ${metricId}`);
  const reader = await readMarket(options);
  return cachedAnswer(reader.file, ['series', permaticker, metricId, opts.from, opts.to, opts.asOf, opts.mode], () =>
    computeMetricSeries(permaticker, metricId, opts, options),
  );
}

async function computeMetricSeries(
  permaticker: number,
  metricId: string,
  opts: SeriesRange,
  options: MarketReadOptions,
): Promise<SeriesPoint[]> {
  const reader = await readMarket(options);
  const conn = await reader.connect();
  try {
    const sec = await securityRow(conn, permaticker);
    if (!sec) throw notFound(`Unknown security: ${permaticker}`);
    if (sec.firstDay === null) return [];
    const asOfDay = opts.asOf ? toEpochDay(opts.asOf) : Number.POSITIVE_INFINITY;
    const [input] = await loadBlock(conn, [sec], opts.asOf ? { toDay: asOfDay } : {});
    if (input.dates.length === 0) return [];
    return metricSeriesOf(input, await market(conn, reader.file), metricId, {
      fromDay: opts.from ? toEpochDay(opts.from) : Number.NEGATIVE_INFINITY,
      toDay: opts.to ? toEpochDay(opts.to) : Number.POSITIVE_INFINITY,
      asOfDay,
      mode: opts.mode,
      calendar: await cachedTradingCalendar(conn, storeVersion(reader.file)),
    });
  } finally {
    conn.closeSync();
  }
}

/**
 * The same as companyMetricsAt for a company page: on its last trading day (no as-of date, or one
 * on or after its last price) when that is the store's latest day, the values are read from the
 * latest stored snapshot, which the same engine computed for every company when the store was
 * built (one lookup instead of evaluating the company's whole history per request); any other
 * date, or a store whose snapshots another engine version built or lack one of the metrics, is computed.
 */
export async function companyPageMetrics(
  company: { permaticker: number; last_price_date: IsoDate | null },
  asOf: IsoDate | null,
  metricIds: readonly string[],
  options: MarketReadOptions = {},
): Promise<MetricsAt> {
  const last = company.last_price_date;
  if (last !== null && (asOf === null || asOf >= last)) {
    if (await latestStoredServes(metricIds, { marketDb: options.file })) {
      const snap = await loadSnapshot('latest', { marketDb: options.file });
      const r = snap.date === last ? rowOf(snap, company.permaticker) : -1;
      if (r >= 0) {
        for (const id of metricIds) if (!getMetric(id)) throw new Error(`Unknown metric ${id}`);
        return { date: snap.date, values: Object.fromEntries(metricIds.map((id) => [id, toNullable(snap.values[id][r])])) };
      }
    }
  }
  return companyMetricsAt(company.permaticker, asOf, metricIds, options);
}
