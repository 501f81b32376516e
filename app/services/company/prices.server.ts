import type { IsoDate } from '../dates';
import { notFound, unprocessable } from '../http/errors';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';

// Daily prices and corporate actions of one security. Adjusted prices are split-adjusted as of
// the latest split (as stored); unadjusted ones are the prices as traded that day. Every point
// carries the total-return index, from which dividend-inclusive returns follow.

export type PricePoint = {
  date: IsoDate;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number;
  volume: number | null;
  total_return_index: number | null;
};

export type CorporateAction = { date: IsoDate; action: string; value: number | null; detail: string | null; source: string };

export type PriceSeries = {
  permaticker: number;
  ticker: string;
  adjusted: boolean;
  from: IsoDate | null;
  to: IsoDate | null;
  prices: PricePoint[];
  actions: CorporateAction[];
};

export type PriceQuery = { from?: IsoDate; to?: IsoDate; adjusted?: boolean };

function range(query: PriceQuery): { where: string; params: string[] } {
  if (query.from && query.to && query.from > query.to)
    throw unprocessable('`from` must not be after `to`.', { from: ['`from` must not be after `to`.'] });
  const parts: string[] = [];
  const params: string[] = [];
  if (query.from) {
    params.push(query.from);
    parts.push(`date >= $${params.length + 1}::DATE`);
  }
  if (query.to) {
    params.push(query.to);
    parts.push(`date <= $${params.length + 1}::DATE`);
  }
  return { where: parts.map((p) => ` AND ${p}`).join(''), params };
}

async function tickerOf(permaticker: number, options: MarketReadOptions): Promise<string> {
  const reader = await readMarket(options);
  const rows = await reader.all<{ ticker: string }>(`SELECT ticker FROM securities WHERE permaticker = $1`, [permaticker]);
  if (rows.length === 0) throw notFound(`Unknown security: ${permaticker}`);
  return rows[0].ticker;
}

export async function corporateActions(
  permaticker: number,
  query: PriceQuery = {},
  options: MarketReadOptions = {},
): Promise<CorporateAction[]> {
  const reader = await readMarket(options);
  const { where, params } = range(query);
  return reader.all<CorporateAction>(
    `SELECT date, action, value, detail, source FROM corporate_actions WHERE permaticker = $1${where} ORDER BY date, action`,
    [permaticker, ...params],
  );
}

export async function priceSeries(permaticker: number, query: PriceQuery = {}, options: MarketReadOptions = {}): Promise<PriceSeries> {
  const ticker = await tickerOf(permaticker, options);
  const adjusted = query.adjusted ?? true;
  const reader = await readMarket(options);
  const { where, params } = range(query);
  // As traded = adjusted x (close_unadj / close), the split factor in force that day.
  const scale = adjusted ? '1' : 'coalesce(close_unadj / nullif(close, 0), 1)';
  const prices = await reader.all<PricePoint>(
    `SELECT date, open * ${scale} AS open, high * ${scale} AS high, low * ${scale} AS low, close * ${scale} AS close,
       volume, tri AS total_return_index
     FROM prices WHERE permaticker = $1${where} ORDER BY date`,
    [permaticker, ...params],
  );
  const actions = await corporateActions(permaticker, query, options);
  return { permaticker, ticker, adjusted, from: query.from ?? null, to: query.to ?? null, prices, actions };
}
