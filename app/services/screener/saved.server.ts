import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { getDb } from '../db/db.server';
import type { ScreenersTable } from '../db/schema';
import { conflict, notFound, unprocessable } from '../http/errors';
import { ScreenSchema, type Screen } from './model';

// Saved screeners. Every function takes the acting user's id and scopes its query by
// it, so another user's id behaves exactly like one that does not exist (404, never 403).

export const MAX_SCREENERS_PER_USER = 200;
export const ScreenerNameSchema = z
  .string({ required_error: 'Enter a name' })
  .trim()
  .min(1, 'Enter a name')
  .max(100, 'At most 100 characters');

export type SavedScreener = {
  id: string;
  name: string;
  screen: Screen;
  shareToken: string | null;
  lastRunAt: string | null;
  lastMatchCount: number | null;
  createdAt: string;
  updatedAt: string;
};

const NOT_FOUND = 'Screener not found.';

function toSaved(row: ScreenersTable): SavedScreener {
  // Stored screens passed the schema when saved; parsing again applies defaults of later fields.
  const parsed = ScreenSchema.safeParse(JSON.parse(row.screen));
  return {
    id: row.id,
    name: row.name,
    screen: parsed.success ? parsed.data : ScreenSchema.parse({}),
    shareToken: row.share_token,
    lastRunAt: row.last_run_at,
    lastMatchCount: row.last_match_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function checkName(name: string): string {
  const parsed = ScreenerNameSchema.safeParse(name);
  if (!parsed.success) throw unprocessable(parsed.error.issues[0].message, { name: parsed.error.issues.map((i) => i.message) });
  return parsed.data;
}

function storedScreen(screen: Screen): string {
  // Page and sort belong to a viewing, not to the saved screen.
  return JSON.stringify({ ...screen, page: 1 });
}

export async function listScreeners(userId: string): Promise<SavedScreener[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom('screeners')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toSaved);
}

export async function getScreener(userId: string, id: string): Promise<SavedScreener> {
  const db = await getDb();
  const row = await db.selectFrom('screeners').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  return toSaved(row);
}

export async function createScreener(userId: string, input: { name: string; screen: Screen }): Promise<SavedScreener> {
  const name = checkName(input.name);
  const db = await getDb();
  const { count } = await db
    .selectFrom('screeners')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_SCREENERS_PER_USER)
    throw conflict(`You can save at most ${MAX_SCREENERS_PER_USER} screeners. Delete one first.`);
  const now = new Date().toISOString();
  const row: ScreenersTable = {
    id: randomUUID(),
    user_id: userId,
    name,
    screen: storedScreen(input.screen),
    share_token: null,
    last_run_at: null,
    last_match_count: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('screeners').values(row).execute();
  return toSaved(row);
}

export async function updateScreener(userId: string, id: string, patch: { name?: string; screen?: Screen }): Promise<SavedScreener> {
  const db = await getDb();
  const set: Partial<ScreenersTable> = { updated_at: new Date().toISOString() };
  if (patch.name !== undefined) set.name = checkName(patch.name);
  if (patch.screen !== undefined) {
    set.screen = storedScreen(patch.screen);
    // Run statistics describe the old screen.
    set.last_run_at = null;
    set.last_match_count = null;
  }
  const result = await db.updateTable('screeners').set(set).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound(NOT_FOUND);
  return getScreener(userId, id);
}

export async function duplicateScreener(userId: string, id: string): Promise<SavedScreener> {
  const original = await getScreener(userId, id);
  const name = `${original.name.slice(0, 92)} (copy)`;
  return createScreener(userId, { name, screen: original.screen });
}

export async function deleteScreener(userId: string, id: string): Promise<void> {
  const db = await getDb();
  const result = await db.deleteFrom('screeners').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(NOT_FOUND);
}

/** Remembers when a saved screen last ran and how many securities matched. */
export async function recordScreenerRun(userId: string, id: string, matchCount: number, at = new Date()): Promise<void> {
  const db = await getDb();
  await db
    .updateTable('screeners')
    .set({ last_run_at: at.toISOString(), last_match_count: matchCount })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
}

/** Turns the read-only share link on (keeping an existing token) or off. */
export async function setScreenerShared(userId: string, id: string, shared: boolean): Promise<SavedScreener> {
  const current = await getScreener(userId, id);
  const token = shared ? (current.shareToken ?? randomBytes(18).toString('base64url')) : null;
  const db = await getDb();
  await db.updateTable('screeners').set({ share_token: token }).where('id', '=', id).where('user_id', '=', userId).execute();
  return { ...current, shareToken: token };
}

/** A shared screener by its token, for anyone holding the link (read-only). */
export async function getSharedScreener(token: string): Promise<{ name: string; screen: Screen }> {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) throw notFound(NOT_FOUND);
  const db = await getDb();
  const row = await db.selectFrom('screeners').selectAll().where('share_token', '=', token).executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  const saved = toSaved(row);
  return { name: saved.name, screen: saved.screen };
}

/** A typed name, trimmed and checked (422 with the message when empty or too long). */
export function renameOrThrow(name: string): string {
  return checkName(name);
}
