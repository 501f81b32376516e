import { z } from 'zod';
import { isMetricId } from '../metrics/catalogue';

// Watchlists: named lists of securities with a note each, shown with catalogue metric columns.

export const MAX_WATCHLISTS_PER_USER = 50;
export const MAX_ITEMS_PER_WATCHLIST = 1000;
export const MAX_WATCHLIST_COLUMNS = 20;
export const DEFAULT_WATCHLIST_NAME = 'My watchlist';
export const DEFAULT_WATCHLIST_COLUMNS = ['price', 'price_change_1d', 'market_cap', 'pe_ttm', 'ret_12m'];
export const WATCHLIST_SORT_KEYS = ['ticker', 'name', 'added_at'] as const;

export const WatchlistNameSchema = z
  .string({ required_error: 'Enter a name' })
  .trim()
  .min(1, 'Enter a name')
  .max(100, 'At most 100 characters');
export const NoteSchema = z
  .string()
  .max(1000, 'At most 1,000 characters')
  .transform((s) => (s.trim() === '' ? null : s.trim()));
export const ColumnsSchema = z
  .array(z.string().refine(isMetricId, (id) => ({ message: `Unknown metric "${id}"` })))
  .max(MAX_WATCHLIST_COLUMNS, `At most ${MAX_WATCHLIST_COLUMNS} columns`)
  .transform((ids) => [...new Set(ids)]);
export const WatchlistSortSchema = z.object({
  key: z.string().refine(
    (k) => (WATCHLIST_SORT_KEYS as readonly string[]).includes(k) || isMetricId(k),
    (k) => ({ message: `Cannot sort by "${k}"` }),
  ),
  dir: z.enum(['asc', 'desc']),
});
export type WatchlistSort = z.infer<typeof WatchlistSortSchema>;
export const PermatickerSchema = z.coerce
  .number()
  .int('Not a permaticker')
  .positive('Not a permaticker')
  .max(2 ** 31 - 1, 'Not a permaticker');
/**
 * A permaticker as rows may hold it: lists kept ids of securities that never existed (0) before
 * adding checked them, and such a row must still be removable.
 */
export const StoredPermatickerSchema = z.coerce
  .number()
  .int('Not a permaticker')
  .min(-(2 ** 31), 'Not a permaticker')
  .max(2 ** 31 - 1, 'Not a permaticker');

export const unknownSecurityDetail = (permaticker: number) => `No company with the permaticker ${permaticker}.`;

export type Watchlist = {
  id: string;
  name: string;
  isDefault: boolean;
  columns: string[];
  sort: WatchlistSort;
  itemCount: number;
  createdAt: string;
  updatedAt: string;
};

export type WatchlistItem = { permaticker: number; note: string | null; addedAt: string };

/** One of the user's lists, and whether it holds the company a page is about. */
export type WatchlistMembership = { id: string; name: string; contains: boolean };
