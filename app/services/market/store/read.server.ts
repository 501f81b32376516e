import { DomainError } from '../../http/errors';
import { MarketDataMissingError, marketReader, type MarketReader } from './open-store.server';

// The app's way into the market store for read services: the cached read-only reader, with
// "no market data yet" turned into a 503 that tells the operator what to run.

export type MarketReadOptions = { file?: string };

export async function readMarket(options: MarketReadOptions = {}): Promise<MarketReader> {
  try {
    return await marketReader(options.file);
  } catch (e) {
    if (e instanceof MarketDataMissingError) throw new DomainError(503, e.message);
    throw e;
  }
}
