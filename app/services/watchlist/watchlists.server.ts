import { randomUUID } from 'node:crypto';
import { getDb, type DB } from '../db/db.server';
import type { WatchlistsTable } from '../db/schema';
import { conflict, notFound, unprocessable } from '../http/errors';
import { loadSecurityMeta } from '../screener/securities.server';
import {
  ColumnsSchema,
  DEFAULT_WATCHLIST_COLUMNS,
  DEFAULT_WATCHLIST_NAME,
  MAX_ITEMS_PER_WATCHLIST,
  MAX_WATCHLISTS_PER_USER,
  NoteSchema,
  unknownSecurityDetail,
  WatchlistNameSchema,
  WatchlistSortSchema,
  type Watchlist,
  type WatchlistItem,
  type WatchlistSort,
} from './model';

// Watchlists and their items. Every function takes the acting user's id and scopes by it: a
// foreign list id is "not found", exactly like one that never existed.

const NOT_FOUND = 'Watchlist not found.';

function check<T>(
  schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } },
  value: unknown,
  field: string,
): T {
  const r = schema.safeParse(value);
  if (!r.success) throw unprocessable(r.error.issues[0].message, { [field]: r.error.issues.map((i) => i.message) });
  return r.data;
}

function toWatchlist(row: WatchlistsTable, itemCount: number): Watchlist {
  const cols = ColumnsSchema.safeParse(JSON.parse(row.columns));
  return {
    id: row.id,
    name: row.name,
    isDefault: row.is_default === 1,
    columns: cols.success ? cols.data : DEFAULT_WATCHLIST_COLUMNS,
    sort: { key: row.sort_key, dir: row.sort_dir },
    itemCount,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function counts(db: DB, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('watchlist_items')
    .select(['watchlist_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('watchlist_id', 'in', ids)
    .groupBy('watchlist_id')
    .execute();
  return new Map(rows.map((r) => [r.watchlist_id, Number(r.n)]));
}

function newRow(userId: string, name: string, isDefault: boolean, columns: string[]): WatchlistsTable {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    user_id: userId,
    name,
    is_default: isDefault ? 1 : 0,
    columns: JSON.stringify(columns),
    sort_key: 'ticker',
    sort_dir: 'asc',
    created_at: now,
    updated_at: now,
  };
}

/** The user's lists, default first; the default list is created on first use. */
export async function listWatchlists(userId: string): Promise<Watchlist[]> {
  const db = await getDb();
  let rows = await db
    .selectFrom('watchlists')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  if (rows.length === 0) {
    await ensureDefault(db, userId);
    rows = await db.selectFrom('watchlists').selectAll().where('user_id', '=', userId).execute();
  }
  const n = await counts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toWatchlist(r, n.get(r.id) ?? 0));
}

async function ensureDefault(db: DB, userId: string): Promise<string> {
  const existing = await db
    .selectFrom('watchlists')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .executeTakeFirst();
  if (existing) return existing.id;
  const row = newRow(userId, DEFAULT_WATCHLIST_NAME, true, DEFAULT_WATCHLIST_COLUMNS);
  await db.insertInto('watchlists').values(row).execute();
  return row.id;
}

/** The default list's id (created when the user has none). */
export async function defaultWatchlistId(userId: string): Promise<string> {
  return ensureDefault(await getDb(), userId);
}

export async function getWatchlist(userId: string, id: string): Promise<Watchlist> {
  const db = await getDb();
  const row = await db.selectFrom('watchlists').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  return toWatchlist(row, (await counts(db, [id])).get(id) ?? 0);
}

export async function createWatchlist(userId: string, input: { name: string; columns?: string[] }): Promise<Watchlist> {
  const name = check(WatchlistNameSchema, input.name, 'name');
  const columns = input.columns === undefined ? DEFAULT_WATCHLIST_COLUMNS : check(ColumnsSchema, input.columns, 'columns');
  const db = await getDb();
  const { n } = await db
    .selectFrom('watchlists')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(n) >= MAX_WATCHLISTS_PER_USER) throw conflict(`You can have at most ${MAX_WATCHLISTS_PER_USER} watchlists.`);
  const row = newRow(userId, name, Number(n) === 0, columns);
  await db.insertInto('watchlists').values(row).execute();
  return toWatchlist(row, 0);
}

export async function updateWatchlist(
  userId: string,
  id: string,
  patch: { name?: string; columns?: string[]; sort?: WatchlistSort; isDefault?: boolean },
): Promise<Watchlist> {
  const db = await getDb();
  const set: Partial<WatchlistsTable> = { updated_at: new Date().toISOString() };
  if (patch.name !== undefined) set.name = check(WatchlistNameSchema, patch.name, 'name');
  if (patch.columns !== undefined) set.columns = JSON.stringify(check(ColumnsSchema, patch.columns, 'columns'));
  if (patch.sort !== undefined) {
    const sort = check(WatchlistSortSchema, patch.sort, 'sort');
    set.sort_key = sort.key;
    set.sort_dir = sort.dir;
  }
  await db.transaction().execute(async (tx) => {
    const result = await tx.updateTable('watchlists').set(set).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound(NOT_FOUND);
    if (patch.isDefault === true) {
      await tx.updateTable('watchlists').set({ is_default: 0 }).where('user_id', '=', userId).where('id', '!=', id).execute();
      await tx.updateTable('watchlists').set({ is_default: 1 }).where('id', '=', id).where('user_id', '=', userId).execute();
    }
  });
  return getWatchlist(userId, id);
}

/** Shows (`on`) or hides a metric column of a list; the column list keeps its order. */
export async function setWatchlistColumn(userId: string, id: string, column: string, on: boolean): Promise<Watchlist> {
  const list = await getWatchlist(userId, id);
  const columns = on ? [...list.columns, column.trim()] : list.columns.filter((c) => c !== column);
  return updateWatchlist(userId, id, { columns });
}

export async function deleteWatchlist(userId: string, id: string): Promise<void> {
  const db = await getDb();
  await db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('watchlists')
      .select(['id', 'is_default'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound(NOT_FOUND);
    await tx.deleteFrom('watchlist_items').where('watchlist_id', '=', id).execute();
    await tx.deleteFrom('watchlists').where('id', '=', id).execute();
    if (row.is_default === 1) {
      // Another list (the oldest) becomes the default, so there always is one while lists exist.
      const next = await tx
        .selectFrom('watchlists')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .executeTakeFirst();
      if (next) await tx.updateTable('watchlists').set({ is_default: 1 }).where('id', '=', next.id).execute();
    }
  });
}

async function ownedId(db: DB, userId: string, id: string): Promise<string> {
  const row = await db.selectFrom('watchlists').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  return row.id;
}

export async function listItems(userId: string, watchlistId: string): Promise<WatchlistItem[]> {
  const db = await getDb();
  await ownedId(db, userId, watchlistId);
  const rows = await db
    .selectFrom('watchlist_items')
    .selectAll()
    .where('watchlist_id', '=', watchlistId)
    .orderBy('added_at')
    .orderBy('permaticker')
    .execute();
  return rows.map((r) => ({ permaticker: Number(r.permaticker), note: r.note, addedAt: r.added_at }));
}

/** Adds a security (adding one already there keeps it, and sets the note when one is given). */
export async function addItem(
  userId: string,
  watchlistId: string,
  input: { permaticker: number; note?: string | null },
): Promise<{ item: WatchlistItem; created: boolean }> {
  const db = await getDb();
  await ownedId(db, userId, watchlistId);
  const note = input.note === undefined || input.note === null ? undefined : check(NoteSchema, input.note, 'note');
  const existing = await db
    .selectFrom('watchlist_items')
    .selectAll()
    .where('watchlist_id', '=', watchlistId)
    .where('permaticker', '=', input.permaticker)
    .executeTakeFirst();
  if (existing) {
    if (note !== undefined)
      await db
        .updateTable('watchlist_items')
        .set({ note })
        .where('watchlist_id', '=', watchlistId)
        .where('permaticker', '=', input.permaticker)
        .execute();
    return {
      item: { permaticker: input.permaticker, note: note === undefined ? existing.note : note, addedAt: existing.added_at },
      created: false,
    };
  }
  const { n } = await db
    .selectFrom('watchlist_items')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('watchlist_id', '=', watchlistId)
    .executeTakeFirstOrThrow();
  if (Number(n) >= MAX_ITEMS_PER_WATCHLIST) throw conflict(`A watchlist holds at most ${MAX_ITEMS_PER_WATCHLIST} securities.`);
  // Only companies of the market data: an id that names none would be a row nobody can read.
  const securities = await loadSecurityMeta();
  if (!securities.some((s) => s.permaticker === input.permaticker)) throw notFound(unknownSecurityDetail(input.permaticker));
  const item = { watchlist_id: watchlistId, permaticker: input.permaticker, note: note ?? null, added_at: new Date().toISOString() };
  try {
    await db.insertInto('watchlist_items').values(item).execute();
  } catch (e) {
    // A concurrent add of the same security: the other request won, which is the same outcome.
    const again = await db
      .selectFrom('watchlist_items')
      .selectAll()
      .where('watchlist_id', '=', watchlistId)
      .where('permaticker', '=', input.permaticker)
      .executeTakeFirst();
    if (!again) throw e;
    return { item: { permaticker: input.permaticker, note: again.note, addedAt: again.added_at }, created: false };
  }
  return { item: { permaticker: item.permaticker, note: item.note, addedAt: item.added_at }, created: true };
}

export async function setItemNote(userId: string, watchlistId: string, permaticker: number, note: string): Promise<WatchlistItem> {
  const db = await getDb();
  await ownedId(db, userId, watchlistId);
  const value = check(NoteSchema, note, 'note');
  const result = await db
    .updateTable('watchlist_items')
    .set({ note: value })
    .where('watchlist_id', '=', watchlistId)
    .where('permaticker', '=', permaticker)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('This security is not on the watchlist.');
  const row = await db
    .selectFrom('watchlist_items')
    .selectAll()
    .where('watchlist_id', '=', watchlistId)
    .where('permaticker', '=', permaticker)
    .executeTakeFirstOrThrow();
  return { permaticker, note: row.note, addedAt: row.added_at };
}

export async function removeItem(userId: string, watchlistId: string, permaticker: number): Promise<void> {
  const db = await getDb();
  await ownedId(db, userId, watchlistId);
  const result = await db
    .deleteFrom('watchlist_items')
    .where('watchlist_id', '=', watchlistId)
    .where('permaticker', '=', permaticker)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('This security is not on the watchlist.');
}
