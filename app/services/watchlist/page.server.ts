import { unprocessable } from '../http/errors';
import { loadSecurityMeta } from '../screener/securities.server';
import { addItem, defaultWatchlistId, getWatchlist, listWatchlists } from './watchlists.server';
import { watchlistView, type WatchlistView } from './view.server';
import { unknownSecurityDetail, type Watchlist } from './model';

// What /watchlist shows: the user's lists and the selected one with its rows.

export async function watchlistPageData(userId: string, listId: string | null): Promise<{ lists: Watchlist[]; view: WatchlistView }> {
  const lists = await listWatchlists(userId);
  const id = listId ?? lists.find((l) => l.isDefault)?.id ?? lists[0].id;
  return { lists, view: await watchlistView(userId, id) };
}

/** A permaticker from a typed ticker or number ("AAPL", "101"); 422 with a message when unknown. */
export async function resolveSecurity(input: string): Promise<{ permaticker: number; ticker: string }> {
  const text = input.trim();
  const securities = await loadSecurityMeta();
  const upper = text.toUpperCase();
  // Prefer a listed security when a ticker was recycled.
  const byTicker = securities.filter((s) => s.ticker.toUpperCase() === upper).sort((a, b) => Number(a.isDelisted) - Number(b.isDelisted));
  if (byTicker.length > 0) return { permaticker: byTicker[0].permaticker, ticker: byTicker[0].ticker };
  if (/^-?\d{1,10}$/.test(text)) {
    const n = Number(text);
    const known = securities.find((s) => s.permaticker === n);
    if (!known) throw unprocessable(unknownSecurityDetail(n), { security: ['Unknown company'] });
    return { permaticker: n, ticker: known.ticker };
  }
  throw unprocessable(`No security with the ticker "${text.slice(0, 20)}".`, { security: ['Unknown ticker'] });
}

export type AddOutcome = { created: boolean; ticker: string; listName: string };

/**
 * Adds a security, by permaticker or typed ticker, to a list (the default one when none is
 * named). Adding one already there changes nothing and says so.
 */
export async function addToWatchlist(userId: string, input: { list?: string; security: number | string }): Promise<AddOutcome> {
  const list = await getWatchlist(userId, input.list ?? (await defaultWatchlistId(userId)));
  const security = await resolveSecurity(String(input.security));
  const { created } = await addItem(userId, list.id, { permaticker: security.permaticker });
  return { created, ticker: security.ticker, listName: list.name };
}

export { defaultWatchlistId };

/** What a page says after an add: a new entry is a success, one already there is only information. */
export function addOutcomeMessage(added: AddOutcome): { text: string; mode: 'success' | 'info' } {
  return added.created
    ? { text: `Added ${added.ticker} to ${added.listName}.`, mode: 'success' }
    : { text: `${added.ticker} is already on ${added.listName}.`, mode: 'info' };
}

/** At most this many securities are added in one go (a whole screen's results, say). */
export const MAX_BULK_ADD = 500;

/** Adds several securities to a list (the default one when none is named), counting what was new. */
export async function addManyToWatchlist(
  userId: string,
  input: { list?: string; permatickers: readonly number[] },
): Promise<{ text: string; mode: 'success' | 'info' }> {
  const list = await getWatchlist(userId, input.list ?? (await defaultWatchlistId(userId)));
  const unique = [...new Set(input.permatickers)];
  if (unique.length === 0) return { text: 'Select at least one result to add.', mode: 'info' };
  if (unique.length > MAX_BULK_ADD) throw unprocessable(`At most ${MAX_BULK_ADD} securities can be added at once; narrow the screen.`);
  let added = 0;
  for (const permaticker of unique) if ((await addItem(userId, list.id, { permaticker })).created) added++;
  const already = unique.length - added;
  const rest = already === 0 ? '' : ` ${already} ${already === 1 ? 'was' : 'were'} already on it.`;
  return {
    text: `Added ${added} ${added === 1 ? 'security' : 'securities'} to ${list.name}.${rest}`,
    mode: added > 0 ? 'success' : 'info',
  };
}
