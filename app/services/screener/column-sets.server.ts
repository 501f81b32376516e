import { randomUUID } from 'node:crypto';
import { getDb } from '../db/db.server';
import type { ColumnSetsTable } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { isMetricId } from '../metrics/catalogue';
import { columnSetColumnsOrThrow, columnSetNameOrThrow, MAX_COLUMN_SETS_PER_USER } from './column-sets';

// Saved column sets of the screener's results. Every function takes the acting user's id and
// scopes its query by it, so another user's set behaves exactly like one that does not exist
// (404, never 403), as saved screeners do.

export type ColumnSet = { id: string; name: string; columns: string[]; createdAt: string; updatedAt: string };

const NOT_FOUND = 'Column set not found.';

function toSet(row: ColumnSetsTable): ColumnSet {
  let columns: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.columns);
    // A metric removed from the catalogue since the set was saved is dropped, not shown as an error.
    if (Array.isArray(parsed)) columns = parsed.filter((c): c is string => typeof c === 'string' && isMetricId(c));
  } catch {
    columns = [];
  }
  return { id: row.id, name: row.name, columns, createdAt: row.created_at, updatedAt: row.updated_at };
}

/** Ids are UUIDs: anything else is no set (and never reaches the database). */
const plausibleId = (id: string) => id.length > 0 && id.length <= 64;

export async function listColumnSets(userId: string): Promise<ColumnSet[]> {
  const db = await getDb();
  const rows = await db.selectFrom('column_sets').selectAll().where('user_id', '=', userId).orderBy('name').orderBy('id').execute();
  return rows.map(toSet);
}

export async function getColumnSet(userId: string, id: string): Promise<ColumnSet> {
  if (!plausibleId(id)) throw notFound(NOT_FOUND);
  const db = await getDb();
  const row = await db.selectFrom('column_sets').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  return toSet(row);
}

export async function createColumnSet(userId: string, input: { name: string; columns: readonly string[] }): Promise<ColumnSet> {
  const name = columnSetNameOrThrow(input.name);
  const columns = columnSetColumnsOrThrow(input.columns);
  const db = await getDb();
  const { count } = await db
    .selectFrom('column_sets')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_COLUMN_SETS_PER_USER)
    throw conflict(`You can save at most ${MAX_COLUMN_SETS_PER_USER} column sets. Delete one first.`);
  const now = new Date().toISOString();
  const row: ColumnSetsTable = {
    id: randomUUID(),
    user_id: userId,
    name,
    columns: JSON.stringify(columns),
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('column_sets').values(row).execute();
  return toSet(row);
}

export async function updateColumnSet(
  userId: string,
  id: string,
  patch: { name?: string; columns?: readonly string[] },
): Promise<ColumnSet> {
  if (!plausibleId(id)) throw notFound(NOT_FOUND);
  const set: Partial<ColumnSetsTable> = { updated_at: new Date().toISOString() };
  if (patch.name !== undefined) set.name = columnSetNameOrThrow(patch.name);
  if (patch.columns !== undefined) set.columns = JSON.stringify(columnSetColumnsOrThrow(patch.columns));
  const db = await getDb();
  const result = await db.updateTable('column_sets').set(set).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound(NOT_FOUND);
  return getColumnSet(userId, id);
}

export async function deleteColumnSet(userId: string, id: string): Promise<void> {
  if (!plausibleId(id)) throw notFound(NOT_FOUND);
  const db = await getDb();
  const result = await db.deleteFrom('column_sets').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(NOT_FOUND);
}

/**
 * /screener?colset=…: the screen's URL with the chosen set's columns in place of its own (`default`
 * = no chosen columns, the results' default ones), from page 1; null without `colset`. Another
 * user's or an unknown set is a 404.
 */
export async function columnSetRedirect(url: URL, userId: string | null): Promise<string | null> {
  const chosen = url.searchParams.get('colset');
  if (chosen === null) return null;
  // The column set form sends the results' query as one field (`from`), so the page holds no
  // second copy of the screen's fields.
  const from = url.searchParams.get('from');
  const p = new URLSearchParams(from !== null ? from.replace(/^\?/, '') : url.search);
  for (const k of ['colset', 'from', 'col', 'cols', 'page', 'explain', 'modal']) p.delete(k);
  if (chosen !== '' && chosen !== 'default') {
    if (!userId) throw notFound(NOT_FOUND);
    for (const c of (await getColumnSet(userId, chosen)).columns) p.append('col', c);
  }
  const qs = p.toString();
  return qs ? `${url.pathname}?${qs}` : url.pathname;
}
