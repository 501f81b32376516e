import { sql, type Kysely } from 'kysely';
import { getDb } from './db.server';
import type { Database } from './schema';

/** The database or a transaction open on it. */
type Conn = Kysely<Database>;

// The versions the rendered-page cache (page-cache.server.ts) puts in its keys, kept in the app
// database so that every web process sees a change at once: one per user ('u:<id>'), bumped by
// every change of or about that user (their own forms and API calls, billing), and one for the
// whole site ('*'), bumped by administrators' changes and by deliveries no user sent (webhooks).
// A bump ends every page kept under the old version; nothing is deleted.

export const SITE_SCOPE = '*';

export function userScope(userId: string): string {
  return `u:${userId}`;
}

async function bump(scope: string, db?: Conn): Promise<void> {
  const conn = db ?? (await getDb());
  await conn
    .insertInto('page_versions')
    .values({ scope, version: 1 })
    .onConflict((oc) => oc.column('scope').doUpdateSet({ version: sql<number>`page_versions.version + 1` }))
    .execute();
}

/** After a change to what `userId`'s pages show (watchlists, name, picture, plan, access). `db`: a transaction to run in. */
export function bumpUserPages(userId: string, db?: Conn): Promise<void> {
  return bump(userScope(userId), db);
}

/** After a change that may show on anyone's pages (an administrator's change, a webhook delivery). */
export function bumpSitePages(db?: Conn): Promise<void> {
  return bump(SITE_SCOPE, db);
}

/** `<site version>.<user version>` (0 for a scope never bumped): one read for both. */
export async function pageVersions(userId: string): Promise<string> {
  const db = await getDb();
  const rows = await db
    .selectFrom('page_versions')
    .select(['scope', 'version'])
    .where('scope', 'in', [SITE_SCOPE, userScope(userId)])
    .execute();
  const of = (scope: string) => rows.find((r) => r.scope === scope)?.version ?? 0;
  return `${of(SITE_SCOPE)}.${of(userScope(userId))}`;
}
