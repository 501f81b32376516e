import { beforeAll, expect, it } from 'vitest';
import * as csvRoute from '~/routes/_app.screener.csv';
import * as screenerRoute from '~/routes/_app.screener._index';
import * as manageRoute from '~/routes/_app.screener.manage';
import * as sharedRoute from '~/routes/_app.screener.shared.$token';
import * as watchlistCsvRoute from '~/routes/_app.watchlist.csv';
import * as watchlistRoute from '~/routes/_app.watchlist';
import { AS_OF_MESSAGE } from '~/services/http/as-of';
import { listScreeners, updateScreener } from '~/services/screener/saved.server';
import { listItems, listWatchlists } from '~/services/watchlist/watchlists.server';
import { callPage } from '../support/api';
import { databaseContents } from '../support/database-contents';
import { forEachDatabase } from '../support/databases';
import { newSignedInAccount } from '../support/pages';
import { syntheticMarketForSuite } from '../support/synthetic-market';

// The HTML routes with real Requests and session cookies: the no-JS builder, saving through the
// prompt's form post, rename/duplicate/delete, CSV, watchlist forms, and 404 for another user's
// screeners and watchlists on every page.

const { marketDb, securities } = syntheticMarketForSuite('screener-pages', { securities: 30, years: 2, seed: 9 });

const signIn = (email: string) => newSignedInAccount(email, { full_name: 'Page User' });

forEachDatabase(
  'screener pages',
  () => {
    let a: { cookie: string; id: string };
    let b: { cookie: string; id: string };
    beforeAll(async () => {
      a = await signIn('pa@example.com');
      b = await signIn('pb@example.com');
    });

    it('builds a screen with builder buttons and redirects to the canonical URL', async () => {
      const r = await callPage(
        screenerRoute.loader,
        '/screener?r=price+>+0&add=rank&rank_metric=ret_3m&rank_side=top&rank_pct=50&rank_within=universe&add_metric=&mcap_min=&run=',
        a.cookie,
      );
      expect(r.status).toBe(302);
      expect(r.location).toBe('/screener?r=price+%3E+0&r=ret_3m+in+top+50%25+of+universe');
      const page = await callPage(screenerRoute.loader, r.location ?? '', a.cookie);
      const data = page.value as { results: { count: number; universeCount: number; rows: unknown[] }; errors: unknown[] };
      expect(data.errors).toEqual([]);
      expect(data.results.count).toBeGreaterThan(0);
      expect(data.results.count).toBeLessThan(data.results.universeCount);
    });

    it('shows bad rules and unknown parameters as messages, never a 500', async () => {
      const page = await callPage(
        screenerRoute.loader,
        '/screener?r=revnue+<+3&r=(((price&mcap_min=lots&sort=x:y&page=-1&as_of=2024-13-45',
        a.cookie,
      );
      expect(page.status).toBe(200);
      const data = page.value as { errors: { message: string }[]; results: null };
      expect(data.results).toBeNull();
      expect(data.errors.map((e) => e.message)).toEqual(
        expect.arrayContaining(['Rule 1: “revnue” is not a metric. Pick a metric from the suggestions.', `As of: ${AS_OF_MESSAGE}`]),
      );
      const huge = await callPage(screenerRoute.loader, `/screener?${'r=price+>+1&'.repeat(300)}`, a.cookie);
      expect((huge.value as { errors: { message: string }[] }).errors[0].message).toMatch(/at most 50 rules/);
      const csv = await callPage(csvRoute.loader, '/screener/csv?r=revnue+<+3', a.cookie);
      expect(csv.status).toBe(400);
    });

    it('saves through the prompt, then renames, duplicates, shares and deletes; B gets 404 everywhere', async () => {
      const query = 'r=price+%3E+0&rank=ret_3m%3Adesc';
      const modal = await callPage(screenerRoute.loader, `/screener?${query}&modal=save`, a.cookie);
      expect((modal.value as { modal: { kind: string; action: string; fields: Record<string, string> } }).modal).toMatchObject({
        kind: 'prompt',
        action: '/screener/manage',
        fields: { intent: 'create', query },
      });
      const saved = await callPage(manageRoute.action, '/screener/manage', a.cookie, {
        form: { intent: 'create', query, name: 'Trend', cancelled: 'false' },
      });
      expect(saved.status).toBe(302);
      const [s] = await listScreeners(a.id);
      expect(saved.location).toBe(`/screener?${query}&saved=${s.id}`);
      const opened = await callPage(screenerRoute.loader, saved.location ?? '', a.cookie);
      expect((opened.value as { saved: { name: string } }).saved).toEqual({ id: s.id, name: 'Trend' });
      // Saving ran the screen: the saved-screeners page shows when and how many matched.
      const afterSave = (await listScreeners(a.id))[0];
      expect(afterSave.lastMatchCount).toBe((opened.value as { results: { count: number } }).results.count);
      expect(afterSave.lastRunAt).not.toBeNull();

      const cancelled = await callPage(manageRoute.action, '/screener/manage', a.cookie, {
        form: { intent: 'rename', id: s.id, name: '', cancelled: 'true' },
      });
      expect(cancelled.status).toBe(302);
      await callPage(manageRoute.action, '/screener/manage', a.cookie, {
        form: { intent: 'rename', id: s.id, name: 'Trend 2', cancelled: 'false' },
      });
      await callPage(manageRoute.action, '/screener/manage', a.cookie, { form: { intent: 'duplicate', id: s.id } });
      await callPage(manageRoute.action, '/screener/manage', a.cookie, { form: { intent: 'share', id: s.id } });
      const names = (await listScreeners(a.id)).map((x) => x.name).sort();
      expect(names).toEqual(['Trend 2', 'Trend 2 (copy)']);
      const token = (await listScreeners(a.id)).find((x) => x.id === s.id)?.shareToken ?? '';
      const shared = await callPage(sharedRoute.loader, `/screener/shared/${token}`, b.cookie, { params: { token } });
      expect(shared.value).toMatchObject({ name: 'Trend 2', rules: ['price > 0'] });

      // User B: every page and form answers 404 for A's screener, and changes nothing.
      expect((await callPage(manageRoute.loader, `/screener/manage?modal=rename&id=${s.id}`, b.cookie)).status).toBe(404);
      expect((await callPage(manageRoute.loader, `/screener/manage?modal=delete&id=${s.id}`, b.cookie)).status).toBe(404);
      for (const form of <Record<string, string>[]>[
        { intent: 'rename', id: s.id, name: 'x', cancelled: 'false' },
        { intent: 'duplicate', id: s.id },
        { intent: 'delete', id: s.id, confirmed: 'true', cancelled: 'false' },
        { intent: 'share', id: s.id },
        { intent: 'update', id: s.id, query: 'r=price+%3E+1' },
      ]) {
        expect([form.intent, (await callPage(manageRoute.action, '/screener/manage', b.cookie, { form })).status]).toEqual([
          form.intent,
          404,
        ]);
      }
      expect(((await callPage(manageRoute.loader, '/screener/manage', b.cookie)).value as { screeners: unknown[] }).screeners).toEqual([]);
      const bOpens = await callPage(screenerRoute.loader, `/screener?${query}&saved=${s.id}`, b.cookie);
      expect((bOpens.value as { saved: unknown }).saved).toBeNull();

      // "Save changes" on an opened screen replaces its rules (and forgets the old run count).
      const updated = await callPage(manageRoute.action, '/screener/manage', a.cookie, {
        form: { intent: 'update', id: s.id, query: 'r=price+%3E+1' },
      });
      expect(updated.location).toBe(`/screener?r=price+%3E+1&saved=${s.id}`);
      const reopened = await callPage(screenerRoute.loader, updated.location ?? '', a.cookie);
      expect((await listScreeners(a.id)).find((x) => x.id === s.id)).toMatchObject({
        lastMatchCount: (reopened.value as { results: { count: number } }).results.count,
        screen: { rules: [{ kind: 'value', metric: 'price', op: '>', value: 1 }] },
      });

      // A deletes through the confirm modal's form.
      const notConfirmed = await callPage(manageRoute.action, '/screener/manage', a.cookie, {
        form: { intent: 'delete', id: s.id, confirmed: 'false', cancelled: 'true' },
      });
      expect(notConfirmed.status).toBe(302);
      expect(await listScreeners(a.id)).toHaveLength(2);
      await callPage(manageRoute.action, '/screener/manage', a.cookie, {
        form: { intent: 'delete', id: s.id, confirmed: 'true', cancelled: 'false' },
      });
      expect((await listScreeners(a.id)).map((x) => x.name)).toEqual(['Trend 2 (copy)']);
    });

    it('downloads every result as CSV, in the order shown, percentages as percents', async () => {
      const q = '/screener?r=price+%3E+0&col=ret_3m&sort=ret_3m:desc&size=25';
      const page = (await callPage(screenerRoute.loader, q, a.cookie)).value as {
        results: { count: number; rows: { ticker: string }[] };
      };
      const csv = await callPage(csvRoute.loader, q.replace('/screener', '/screener/csv'), a.cookie);
      expect(csv.status).toBe(200);
      const lines = csv.text.trim().split('\r\n');
      expect(lines[0]).toBe('ticker,name,sector,industry,exchange,Price,Return (3 months) (%)');
      expect(lines).toHaveLength(page.results.count + 1);
      expect(lines.slice(1, 1 + page.results.rows.length).map((l) => l.split(',')[0])).toEqual(page.results.rows.map((r) => r.ticker));
    });

    it('watchlists by form: add from results, note, column, sort, CSV; B gets 404', async () => {
      const perm = securities[0].permaticker;
      const added = await callPage(watchlistRoute.action, '/watchlist', a.cookie, {
        form: { intent: 'add', permaticker: String(perm), redirect_to: '/screener?r=price+%3E+0' },
      });
      expect([added.status, added.location]).toEqual([302, '/screener?r=price+%3E+0']);
      await callPage(watchlistRoute.action, '/watchlist', a.cookie, {
        form: { intent: 'add', security: securities[1].ticker.toLowerCase() },
      });
      const [list] = await listWatchlists(a.id);
      expect((await listItems(a.id, list.id)).map((i) => i.permaticker).sort()).toEqual([perm, securities[1].permaticker].sort());
      await callPage(watchlistRoute.action, '/watchlist', a.cookie, {
        form: { intent: 'note', list: list.id, permaticker: String(perm), note: 'buy below 50' },
      });
      await callPage(watchlistRoute.action, '/watchlist', a.cookie, { form: { intent: 'add-column', list: list.id, column: 'rsi14' } });
      await callPage(watchlistRoute.action, '/watchlist', a.cookie, { form: { intent: 'sort', list: list.id, key: 'price', dir: 'desc' } });
      const page = (await callPage(watchlistRoute.loader, `/watchlist?list=${list.id}`, a.cookie)).value as {
        view: { watchlist: { columns: string[]; sort: unknown }; rows: { permaticker: number; note: string | null }[] };
      };
      expect(page.view.watchlist.columns).toContain('rsi14');
      expect(page.view.watchlist.sort).toEqual({ key: 'price', dir: 'desc' });
      expect(page.view.rows.find((r) => r.permaticker === perm)?.note).toBe('buy below 50');
      const csv = await callPage(watchlistCsvRoute.loader, `/watchlist/csv?list=${list.id}`, a.cookie);
      expect(csv.text).toContain('buy below 50');
      expect(csv.text.split('\r\n')[0]).toContain('RSI (14 days)');
      const unknownTicker = await callPage(watchlistRoute.action, '/watchlist', a.cookie, {
        form: { intent: 'add', security: 'NOPE', list: list.id },
      });
      expect(unknownTicker.status).toBe(302);

      expect((await callPage(watchlistRoute.loader, `/watchlist?list=${list.id}`, b.cookie)).status).toBe(404);
      expect((await callPage(watchlistCsvRoute.loader, `/watchlist/csv?list=${list.id}`, b.cookie)).status).toBe(404);
      for (const form of <Record<string, string>[]>[
        { intent: 'add', list: list.id, permaticker: '5' },
        { intent: 'remove', list: list.id, permaticker: String(perm) },
        { intent: 'note', list: list.id, permaticker: String(perm), note: 'mine' },
        { intent: 'add-column', list: list.id, column: 'roe' },
        { intent: 'rename-list', list: list.id, name: 'x', cancelled: 'false' },
        { intent: 'delete-list', list: list.id, confirmed: 'true', cancelled: 'false' },
      ]) {
        expect([form.intent, (await callPage(watchlistRoute.action, '/watchlist', b.cookie, { form })).status]).toEqual([form.intent, 404]);
      }
      expect((await listItems(a.id, list.id)).find((i) => i.permaticker === perm)?.note).toBe('buy below 50');
    });

    it('sends an old asof link to the same screen with as_of, and the screen runs as of that date', async () => {
      const latest = ((await callPage(screenerRoute.loader, '/screener?r=price+%3E+0', a.cookie)).value as { results: { asOf: string } })
        .results.asOf;
      const old = await callPage(screenerRoute.loader, `/screener?r=price+%3E+0&asof=${latest}&col=ret_3m`, a.cookie);
      expect([old.status, old.location]).toEqual([301, `/screener?r=price+%3E+0&as_of=${latest}&col=ret_3m`]);
      const followed = (await callPage(screenerRoute.loader, old.location ?? '', a.cookie)).value as {
        errors: unknown[];
        asOfParam: string;
        results: { asOf: string };
      };
      expect(followed.errors).toEqual([]);
      expect(followed.asOfParam).toBe(latest);
      expect(followed.results.asOf <= latest).toBe(true);
      // A CSV link of the old kind still downloads.
      const csv = await callPage(csvRoute.loader, `/screener/csv?r=price+%3E+0&asof=${latest}`, a.cookie);
      expect(csv.status).toBe(200);
    });

    it('writes nothing while pages are only looked at (GET), saved screens and CSVs included', async () => {
      const query = 'r=price+%3E+0&rank=ret_3m%3Adesc';
      await callPage(manageRoute.action, '/screener/manage', a.cookie, { form: { intent: 'create', query, name: 'Looked at' } });
      const saved = (await listScreeners(a.id)).find((s) => s.name === 'Looked at');
      const [list] = await listWatchlists(a.id);
      const before = await databaseContents();
      for (const [route, path] of <Array<[unknown, string]>>[
        [screenerRoute.loader, `/screener?${query}&saved=${saved?.id}`],
        [screenerRoute.loader, `/screener?${query}&saved=${saved?.id}&page=2&sort=ticker:desc&explain=${securities[0].permaticker}`],
        [screenerRoute.loader, `/screener?${query}&modal=save`],
        [csvRoute.loader, `/screener/csv?${query}`],
        [manageRoute.loader, '/screener/manage'],
        [manageRoute.loader, `/screener/manage?modal=rename&id=${saved?.id}`],
        [watchlistRoute.loader, `/watchlist?list=${list.id}&modal=rename-list`],
        [watchlistCsvRoute.loader, `/watchlist/csv?list=${list.id}`],
      ]) {
        expect((await callPage(route, path, a.cookie)).status, path).toBeLessThan(400);
      }
      expect(await databaseContents()).toBe(before);
      // Running it is a POST, and that records the run (a changed screen forgets the old one).
      await updateScreener(a.id, saved?.id ?? '', { screen: saved?.screen });
      expect((await listScreeners(a.id)).find((s) => s.id === saved?.id)?.lastRunAt).toBeNull();
      const run = await callPage(manageRoute.action, '/screener/manage', a.cookie, { form: { intent: 'run', id: saved?.id ?? '' } });
      expect(run.location).toBe(`/screener?${query}&saved=${saved?.id}`);
      expect((await listScreeners(a.id)).find((s) => s.id === saved?.id)).toMatchObject({ lastMatchCount: saved?.lastMatchCount });
      expect((await listScreeners(a.id)).find((s) => s.id === saved?.id)?.lastRunAt).not.toBeNull();
    });
  },
  { env: { MARKET_DB: marketDb } },
);
