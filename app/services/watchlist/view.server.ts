import { isDomainError } from '../http/errors';
import { preparedUniverse } from '../screener/run.server';
import { loadSecurityMeta } from '../screener/securities.server';
import type { SecurityMeta } from '../screener/engine/types';
import type { MetricSnapshot } from '../metrics/engine/types';
import type { Watchlist } from './model';
import { watchlistRows, type WatchlistRow } from './table';
import { getWatchlist, listItems } from './watchlists.server';

// A watchlist with its rows for the page, the CSV and the API: the latest snapshot's values.
// Without market data the list still shows (tickers unknown, values n/a) so nothing saved is hidden.

export type WatchlistView = { watchlist: Watchlist; rows: WatchlistRow[]; asOf: string | null; marketDataMissing: boolean };

export async function watchlistView(userId: string, id: string): Promise<WatchlistView> {
  const watchlist = await getWatchlist(userId, id);
  const items = await listItems(userId, id);
  let snapshot: MetricSnapshot | null = null;
  let securities: SecurityMeta[] = [];
  let marketDataMissing = false;
  try {
    const prepared = await preparedUniverse('latest');
    snapshot = prepared.snapshot;
    securities = await loadSecurityMeta();
  } catch (e) {
    if (!isDomainError(e) || (e.status !== 503 && e.status !== 404)) throw e;
    marketDataMissing = true;
  }
  const byId = new Map(securities.map((s) => [s.permaticker, s]));
  return {
    watchlist,
    rows: watchlistRows(items, byId, snapshot, watchlist.columns, watchlist.sort),
    asOf: snapshot?.date ?? null,
    marketDataMissing,
  };
}
