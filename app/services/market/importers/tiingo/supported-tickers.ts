import { isIsoDate } from '../../../dates';
import { ImportFileError } from '../../store/records';
import { csvRecords } from '../csv-records';
import { fromTiingoTicker } from './tiingo-client.server';

// Tiingo's supported_tickers.zip holds one CSV, a row per ticker it has prices for, delisted
// ones included: ticker, exchange, assetType, priceCurrency, startDate, endDate. Pure.

export type TiingoListing = {
  /** As the store writes it (BRK.B). */
  ticker: string;
  exchange: string;
  assetType: string;
  currency: string;
  startDate: string | null;
  endDate: string | null;
};

const COLUMNS = ['ticker', 'exchange', 'assettype', 'pricecurrency', 'startdate', 'enddate'] as const;

export function parseSupportedTickers(text: string, file: string): TiingoListing[] {
  const records = csvRecords(text, file);
  if (records.length === 0) throw new ImportFileError(file, 1, 'empty ticker list');
  const header = records[0].cells.map((h) => h.trim().toLowerCase());
  const index = Object.fromEntries(COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<(typeof COLUMNS)[number], number>;
  const missing = COLUMNS.filter((c) => index[c] < 0);
  if (missing.length > 0) throw new ImportFileError(file, 1, `not Tiingo's ticker list: no ${missing.join(', ')} column`);
  const date = (v: string) => (isIsoDate(v.trim()) ? v.trim() : null);
  return records.slice(1).flatMap(({ cells }) => {
    const ticker = (cells[index.ticker] ?? '').trim();
    if (!ticker) return [];
    return [
      {
        ticker: fromTiingoTicker(ticker),
        exchange: (cells[index.exchange] ?? '').trim(),
        assetType: (cells[index.assettype] ?? '').trim(),
        currency: (cells[index.pricecurrency] ?? '').trim(),
        startDate: date(cells[index.startdate] ?? ''),
        endDate: date(cells[index.enddate] ?? ''),
      },
    ];
  });
}

const US_EXCHANGES = new Set(['NYSE', 'NASDAQ', 'NYSE ARCA', 'NYSE MKT', 'AMEX', 'BATS', 'NYSE NAT', 'NMFQS']);

/**
 * The US common stocks of the list. A listing whose prices end more than a week before the
 * newest end date in the list is delisted; those are kept only when asked for, so a universe
 * can be chosen free of survivorship bias.
 */
export function usCommonStocks(listings: TiingoListing[], includeDelisted: boolean): { listing: TiingoListing; delisted: boolean }[] {
  const stocks = listings.filter(
    (l) => l.assetType.toLowerCase() === 'stock' && l.currency === 'USD' && US_EXCHANGES.has(l.exchange.toUpperCase()),
  );
  const newest = stocks.reduce((m, l) => (l.endDate && l.endDate > m ? l.endDate : m), '');
  const cutoff = newest ? shiftDays(newest, -7) : '';
  return stocks
    .filter((l) => l.startDate !== null)
    .map((listing) => ({ listing, delisted: listing.endDate !== null && listing.endDate < cutoff }))
    .filter((s) => includeDelisted || !s.delisted)
    .sort((a, b) => (a.listing.ticker < b.listing.ticker ? -1 : a.listing.ticker > b.listing.ticker ? 1 : 0));
}

function shiftDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
