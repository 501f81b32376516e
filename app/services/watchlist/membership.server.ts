import { getDb } from '../db/db.server';
import { notFound } from '../http/errors';
import type { WatchlistMembership } from './model';
import { addItem, listWatchlists, removeItem } from './watchlists.server';

// Which of the user's lists hold one company: the watchlist box on every company tab reads it,
// and its add/remove buttons change it.

export async function companyWatchlists(userId: string, permaticker: number): Promise<WatchlistMembership[]> {
  const lists = await listWatchlists(userId);
  const db = await getDb();
  const rows = await db
    .selectFrom('watchlist_items')
    .select('watchlist_id')
    .where(
      'watchlist_id',
      'in',
      lists.map((l) => l.id),
    )
    .where('permaticker', '=', permaticker)
    .execute();
  const holding = new Set(rows.map((r) => r.watchlist_id));
  return lists.map((l) => ({ id: l.id, name: l.name, contains: holding.has(l.id) }));
}

/** Puts the company on the list or takes it off; doing what is already so changes nothing. */
export async function setCompanyOnWatchlist(userId: string, listId: string, permaticker: number, on: boolean): Promise<void> {
  if (on) {
    await addItem(userId, listId, { permaticker });
    return;
  }
  const list = (await companyWatchlists(userId, permaticker)).find((l) => l.id === listId);
  if (!list) throw notFound('Watchlist not found.');
  if (list.contains) await removeItem(userId, listId, permaticker);
}
