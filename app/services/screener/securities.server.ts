import { MARKET_DATA_UNAVAILABLE, marketReader, MarketDataMissingError } from '../market/store/open-store.server';
import { DomainError } from '../http/errors';
import type { SecurityColumns } from '../market/store/security';
import type { SecurityMeta } from './engine/types';

// The securities' descriptive fields for the engine, read once per market file (the reader is
// replaced when an import publishes a new file, which also renews this cache).

type Row = Pick<
  SecurityColumns,
  'permaticker' | 'ticker' | 'name' | 'exchange' | 'sector' | 'industry' | 'is_delisted' | 'last_price_date'
>;

const cache = new WeakMap<object, Promise<SecurityMeta[]>>();

export const NO_MARKET_DATA = MARKET_DATA_UNAVAILABLE;

export async function loadSecurityMeta(): Promise<SecurityMeta[]> {
  let reader;
  try {
    reader = await marketReader();
  } catch (e) {
    if (e instanceof MarketDataMissingError) throw new DomainError(503, NO_MARKET_DATA);
    throw e;
  }
  let pending = cache.get(reader);
  if (!pending) {
    pending = reader
      .all<Row>(
        'SELECT permaticker, ticker, name, exchange, sector, industry, is_delisted, CAST(last_price_date AS VARCHAR) AS last_price_date FROM securities',
      )
      .then((rows) =>
        rows.map((r) => ({
          permaticker: Number(r.permaticker),
          ticker: r.ticker,
          name: r.name,
          exchange: r.exchange,
          sector: r.sector,
          industry: r.industry,
          isDelisted: Boolean(r.is_delisted),
          lastPriceDate: r.last_price_date,
        })),
      );
    cache.set(reader, pending);
    pending.catch(() => cache.delete(reader));
  }
  return pending;
}
