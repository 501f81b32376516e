import type { PriceRecord, SecurityRecord } from '../../store/records';

/**
 * The security row a prices-only source creates for a ticker the store does not know: the
 * ticker is its only name, and the descriptive fields wait for a source that has them (SEC,
 * Sharadar), which replaces the row when it comes.
 */
export function priceOnlySecurity(
  permaticker: number,
  ticker: string,
  prices: readonly PriceRecord[],
  source: string,
  exchange: string | null = null,
): SecurityRecord {
  return {
    permaticker,
    ticker,
    name: ticker,
    exchange,
    category: null,
    sector: null,
    industry: null,
    cik: null,
    firstPriceDate: prices[0].date,
    lastPriceDate: prices[prices.length - 1].date,
    isDelisted: false,
    source,
  };
}
