import { isDomainError, notFound } from '../http/errors';
import { loadSecurityMeta } from '../screener/securities.server';
import { defaultWatchlistId, listWatchlists } from './watchlists.server';
import { watchlistView, type WatchlistView } from './view.server';
import type { Watchlist } from './model';

// What /watchlist shows: the user's lists and the selected one with its rows.

export async function watchlistPageData(userId: string, listId: string | null): Promise<{ lists: Watchlist[]; view: WatchlistView }> {
  const lists = await listWatchlists(userId);
  const id = listId ?? lists.find((l) => l.isDefault)?.id ?? lists[0].id;
  return { lists, view: await watchlistView(userId, id) };
}

/** A permaticker from a typed ticker or number ("AAPL", "101"); 422-style message when unknown. */
export async function resolveSecurity(input: string): Promise<{ permaticker: number; ticker: string }> {
  const text = input.trim();
  let securities: Awaited<ReturnType<typeof loadSecurityMeta>> = [];
  try {
    securities = await loadSecurityMeta();
  } catch (e) {
    if (!isDomainError(e)) throw e;
  }
  const upper = text.toUpperCase();
  // Prefer a listed security when a ticker was recycled.
  const byTicker = securities.filter((s) => s.ticker.toUpperCase() === upper).sort((a, b) => Number(a.isDelisted) - Number(b.isDelisted));
  if (byTicker.length > 0) return { permaticker: byTicker[0].permaticker, ticker: byTicker[0].ticker };
  if (/^\d{1,9}$/.test(text)) {
    const n = Number(text);
    const known = securities.find((s) => s.permaticker === n);
    return { permaticker: n, ticker: known?.ticker ?? text };
  }
  throw notFound(`No security with the ticker "${text.slice(0, 20)}".`);
}

export { defaultWatchlistId };
