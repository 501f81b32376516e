import { DomainError } from '../../http/errors';
import { MarketDataMissingError, marketReader, type MarketReader } from './open-store.server';

// The app's way into the market store for read services: the cached read-only reader, with
// a store that is missing or unreadable turned into a 503 "market data unavailable".

export type MarketReadOptions = { file?: string };

export async function readMarket(options: MarketReadOptions = {}): Promise<MarketReader> {
  try {
    return await marketReader(options.file);
  } catch (e) {
    if (e instanceof MarketDataMissingError) throw new DomainError(503, e.detail);
    throw e;
  }
}
