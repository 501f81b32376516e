import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as watchlistsRoute from '~/routes/api.v1.watchlists';
import * as watchlistRoute from '~/routes/api.v1.watchlists.$id';
import * as itemsRoute from '~/routes/api.v1.watchlists.$id.items';
import * as itemRoute from '~/routes/api.v1.watchlists.$id.items.$permaticker';
import * as watchlistPage from '~/routes/_app.watchlist';
import { getSession } from '~/services/auth/session.server';
import { issueGuestToken, issueUserToken } from '~/services/auth/tokens.server';
import { createUser, deleteAccount } from '~/services/auth/users.server';
import { getDb } from '~/services/db/db.server';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { buildSnapshots } from '~/services/metrics/snapshots.server';
import { writeFixtureStore } from '~/services/metrics/testing/fixture-store.server';
import { syntheticUniverse } from '~/services/metrics/testing/synthetic-universe';
import { MAX_WATCHLIST_COLUMNS } from '~/services/watchlist/model';
import { addItem, defaultWatchlistId, deleteWatchlist, listWatchlists, setItemNote } from '~/services/watchlist/watchlists.server';
import { callRoute } from '../support/api';
import { callPage, cookiePair, sessionCookieFor } from '../support/pages';
import { forEachDatabase } from '../support/databases';

// Watchlists through their JSON API and services on SQLite and PostgreSQL: a default list on first
// use, items with notes, columns and sort, ownership (404 for foreign ids), hostile input.

// The companies a watchlist can hold: permatickers 101 to 110.
const marketDir = mkdtempSync(path.join(tmpdir(), 'quarry-watchlist-market-'));
const marketDb = path.join(marketDir, 'market.duckdb');
beforeAll(async () => {
  await writeFixtureStore(marketDb, syntheticUniverse({ securities: 10, years: 2, seed: 3, firstPermaticker: 101 }));
  await buildSnapshots({ marketDb, progress: { start: () => {}, tick: () => {}, stop: () => {}, log: () => {} } });
});
afterAll(() => {
  closeMarketReader();
  rmSync(marketDir, { recursive: true, force: true });
});

type List = { id: string; name: string; is_default: boolean; columns: string[]; item_count: number; sort: { key: string; dir: string } };

forEachDatabase(
  'watchlist API',
  () => {
    let a: string;
    let b: string;
    let aId: string;
    beforeAll(async () => {
      const ua = await createUser({ email: 'wa@example.com', password: 'correct horse battery', full_name: 'Watch A', access: true });
      const ub = await createUser({ email: 'wb@example.com', password: 'correct horse battery', full_name: 'Watch B', access: true });
      aId = ua.id;
      a = (await issueUserToken(ua.id)).access_token;
      b = (await issueUserToken(ub.id)).access_token;
    });

    it('creates one default list on first use, then more named lists', async () => {
      const first = (await callRoute(watchlistsRoute, { token: a })).body as List[];
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ name: 'My watchlist', is_default: true, item_count: 0 });
      expect((await callRoute(watchlistsRoute, { token: a })).body).toEqual(first);
      const created = await callRoute(watchlistsRoute, {
        token: a,
        json: { name: 'Energy ideas', columns: ['dividend_yield', 'pe_ttm', 'pe_ttm'] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Energy ideas', is_default: false, columns: ['dividend_yield', 'pe_ttm'] });
      const lists = (await callRoute(watchlistsRoute, { token: a })).body as List[];
      expect(lists.map((l) => l.name)).toEqual(['My watchlist', 'Energy ideas']);
    });

    it('adds items with notes, changes columns and sort, removes items', async () => {
      const id = await defaultWatchlistId(aId);
      const add = await callRoute(itemsRoute, { token: a, params: { id }, json: { permaticker: 101, note: 'cheap' } });
      expect(add.status).toBe(201);
      expect(add.body).toMatchObject({ permaticker: 101, note: 'cheap' });
      const again = await callRoute(itemsRoute, { token: a, params: { id }, json: { permaticker: 101 } });
      expect([again.status, (again.body as { note: string }).note]).toEqual([200, 'cheap']);
      await callRoute(itemsRoute, { token: a, params: { id }, json: { permaticker: 102 } });
      const note = await callRoute(itemRoute, {
        token: a,
        method: 'PATCH',
        params: { id, permaticker: '102' },
        json: { note: '  watch margins ' },
      });
      expect(note.body).toMatchObject({ permaticker: 102, note: 'watch margins' });
      const items = (await callRoute(itemsRoute, { token: a, params: { id } })).body as { permaticker: number; note: string | null }[];
      expect(items.map((i) => [i.permaticker, i.note])).toEqual([
        [101, 'cheap'],
        [102, 'watch margins'],
      ]);
      const patched = await callRoute(watchlistRoute, {
        token: a,
        method: 'PATCH',
        params: { id },
        json: { name: 'Main', columns: ['roe', 'price'], sort: { key: 'roe', dir: 'desc' } },
      });
      expect(patched.body).toMatchObject({ name: 'Main', columns: ['roe', 'price'], sort: { key: 'roe', dir: 'desc' }, item_count: 2 });
      const view = await callRoute(watchlistRoute, { token: a, params: { id } });
      expect(view.status).toBe(200);
      expect(
        (view.body as { rows: { permaticker: number; note: string | null; values: Record<string, unknown> }[] }).rows.map((r) =>
          Object.keys(r.values),
        ),
      ).toEqual([
        ['roe', 'price'],
        ['roe', 'price'],
      ]);
      expect((await callRoute(itemRoute, { token: a, method: 'DELETE', params: { id, permaticker: '101' } })).status).toBe(204);
      expect((await callRoute(itemRoute, { token: a, method: 'DELETE', params: { id, permaticker: '101' } })).status).toBe(404);
      expect(((await callRoute(itemsRoute, { token: a, params: { id } })).body as unknown[]).length).toBe(1);
    });

    it('user B gets 404 for every one of A’s lists and items', async () => {
      const id = await defaultWatchlistId(aId);
      await addItem(aId, id, { permaticker: 105 });
      const calls: [string, object, Parameters<typeof callRoute>[1]][] = [
        ['GET list', watchlistRoute, { params: { id } }],
        ['PATCH list', watchlistRoute, { method: 'PATCH', params: { id }, json: { name: 'Mine now' } }],
        ['DELETE list', watchlistRoute, { method: 'DELETE', params: { id } }],
        ['GET items', itemsRoute, { params: { id } }],
        ['POST item', itemsRoute, { params: { id }, json: { permaticker: 107 } }],
        ['PATCH item', itemRoute, { method: 'PATCH', params: { id, permaticker: '105' }, json: { note: 'x' } }],
        ['DELETE item', itemRoute, { method: 'DELETE', params: { id, permaticker: '105' } }],
      ];
      for (const [label, route, opts] of calls) {
        const answer = await callRoute(route, { ...opts, token: b });
        expect([label, answer.status, answer.body]).toEqual([
          label,
          404,
          { detail: expect.stringMatching(/not found|not on the watchlist/) },
        ]);
      }
      const bLists = (await callRoute(watchlistsRoute, { token: b })).body as List[];
      expect(bLists.map((l) => l.id)).not.toContain(id);
      await expect(setItemNote('nobody', id, 555, 'x')).rejects.toMatchObject({ status: 404 });
      expect((await callRoute(itemsRoute, { token: a, params: { id } })).body).toEqual(
        expect.arrayContaining([expect.objectContaining({ permaticker: 105 })]),
      );
    });

    it('answers hostile input with 4xx and a detail', async () => {
      const id = await defaultWatchlistId(aId);
      const cases: [string, object, Parameters<typeof callRoute>[1], number][] = [
        ['no token', watchlistsRoute, {}, 401],
        ['guest', watchlistsRoute, { token: issueGuestToken().access_token }, 403],
        ['unknown column', watchlistsRoute, { token: a, json: { name: 'x', columns: ['revnue'] } }, 422],
        [
          'too many columns',
          watchlistsRoute,
          { token: a, json: { name: 'x', columns: Array.from({ length: MAX_WATCHLIST_COLUMNS + 1 }, () => 'price') } },
          422,
        ],
        ['long name', watchlistsRoute, { token: a, json: { name: 'n'.repeat(101) } }, 422],
        ['extra field', watchlistsRoute, { token: a, json: { name: 'x', owner: 'b' } }, 422],
        ['bad sort', watchlistRoute, { token: a, method: 'PATCH', params: { id }, json: { sort: { key: 'password', dir: 'asc' } } }, 422],
        ['string permaticker', itemsRoute, { token: a, params: { id }, json: { permaticker: '1; DROP TABLE' } }, 422],
        ['negative permaticker', itemsRoute, { token: a, params: { id }, json: { permaticker: -1 } }, 404],
        ['permaticker beyond 32 bits', itemsRoute, { token: a, params: { id }, json: { permaticker: 2 ** 40 } }, 422],
        ['huge note', itemsRoute, { token: a, params: { id }, json: { permaticker: 109, note: 'x'.repeat(5001) } }, 422],
        ['permaticker in path', itemRoute, { token: a, method: 'DELETE', params: { id, permaticker: 'abc' } }, 404],
        ['unknown list', itemsRoute, { token: a, params: { id: 'nope' }, json: { permaticker: 109 } }, 404],
        ['PUT', watchlistRoute, { token: a, method: 'PUT', params: { id } }, 405],
      ];
      for (const [label, route, opts, status] of cases) {
        const answer = await callRoute(route, opts);
        expect([label, answer.status]).toEqual([label, status]);
        expect(typeof (answer.body as { detail?: unknown }).detail).toBe('string');
      }
    });

    it('deleting the default list promotes another; deleting the account removes everything', async () => {
      const lists = await listWatchlists(aId);
      const def = lists.find((l) => l.isDefault);
      if (!def) throw new Error('no default list');
      await deleteWatchlist(aId, def.id);
      const after = await listWatchlists(aId);
      expect(after.filter((l) => l.isDefault)).toHaveLength(1);
      await deleteAccount(aId);
      const db = await getDb();
      expect(await db.selectFrom('watchlists').select('id').where('user_id', '=', aId).execute()).toEqual([]);
      expect(
        await db
          .selectFrom('watchlist_items')
          .select('permaticker')
          .where(
            'watchlist_id',
            'in',
            after.map((l) => l.id),
          )
          .execute(),
      ).toEqual([]);
    });

    it('accepts only companies that exist, from the API and the page, and a stored bad row can be removed', async () => {
      const user = await createUser({ email: 'wc@example.com', password: 'correct horse battery', full_name: 'Watch C', access: true });
      const token = (await issueUserToken(user.id)).access_token;
      const id = await defaultWatchlistId(user.id);
      for (const permaticker of [0, 123456789]) {
        const answer = await callRoute(itemsRoute, { token, params: { id }, json: { permaticker } });
        expect([answer.status, answer.body]).toEqual([404, { detail: `No company with the permaticker ${permaticker}.` }]);
      }
      const { cookie } = await sessionCookieFor(user);
      for (const permaticker of ['0', '123456789']) {
        // The page answers with its error modal, which names the id.
        const page = await callPage(watchlistPage.action, '/watchlist', { cookie, form: { intent: 'add', permaticker } });
        expect(page.status).toBe(302);
        const flashed = await getSession(new Request('http://localhost/', { headers: { Cookie: cookiePair(page.setCookie) } }));
        expect(JSON.stringify(flashed.data)).toContain(`No company with the permaticker ${permaticker}.`);
      }
      // A row stored before adding checked ids (as the issue found: id 0).
      const db = await getDb();
      await db
        .insertInto('watchlist_items')
        .values({ watchlist_id: id, permaticker: 0, note: null, added_at: new Date().toISOString() })
        .execute();
      expect((await callRoute(itemRoute, { token, method: 'DELETE', params: { id, permaticker: '0' } })).status).toBe(204);
      await db
        .insertInto('watchlist_items')
        .values({ watchlist_id: id, permaticker: 0, note: null, added_at: new Date().toISOString() })
        .execute();
      const removed = await callPage(watchlistPage.action, '/watchlist', {
        cookie,
        form: { intent: 'remove', list: id, permaticker: '0' },
      });
      expect(removed.status).toBe(302);
      expect(
        await db.selectFrom('watchlist_items').select('permaticker').where('watchlist_id', '=', id).where('permaticker', '=', 0).execute(),
      ).toEqual([]);
    });
  },
  { env: { MARKET_DB: marketDb } },
);
