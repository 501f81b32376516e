import { z } from 'zod';
import type { Watchlist, WatchlistItem } from './model';
import type { WatchlistRow } from './table';

// Shapes of the watchlist JSON API (snake_case like the rest of the API).

export const WatchlistCreateBody = z
  .object({ name: z.string().max(1000), columns: z.array(z.string().max(64)).max(100).optional() })
  .strict();
export const WatchlistPatchBody = z
  .object({
    name: z.string().max(1000).optional(),
    columns: z.array(z.string().max(64)).max(100).optional(),
    sort: z.object({ key: z.string().max(64), dir: z.enum(['asc', 'desc']) }).optional(),
    is_default: z.literal(true).optional(),
  })
  .strict();
export const ItemCreateBody = z
  .object({
    // Any whole number: one that names no company is a 404 with that message.
    permaticker: z
      .number()
      .int()
      .min(-(2 ** 31))
      .max(2 ** 31 - 1),
    note: z.string().max(5000).nullable().optional(),
  })
  .strict();
export const ItemPatchBody = z.object({ note: z.string().max(5000) }).strict();

export function watchlistJson(w: Watchlist) {
  return {
    id: w.id,
    name: w.name,
    is_default: w.isDefault,
    columns: w.columns,
    sort: w.sort,
    item_count: w.itemCount,
    created_at: w.createdAt,
    updated_at: w.updatedAt,
  };
}

export function itemJson(i: WatchlistItem) {
  return { permaticker: i.permaticker, note: i.note, added_at: i.addedAt };
}

export function rowJson(r: WatchlistRow) {
  return {
    permaticker: r.permaticker,
    ticker: r.ticker,
    name: r.name,
    sector: r.sector,
    note: r.note,
    added_at: r.addedAt,
    values: r.values,
  };
}
