import { beforeAll, expect, it } from 'vitest';
import * as columnsRoute from '~/routes/_app.screener.columns';
import * as csvRoute from '~/routes/_app.screener.csv';
import * as screenerRoute from '~/routes/_app.screener._index';
import * as watchlistRoute from '~/routes/_app.watchlist';
import { loadRootData } from '~/services/auth/root-data.server';
import { getMetric } from '~/services/metrics/catalogue';
import { listColumnSets } from '~/services/screener/column-sets.server';
import { callPage, type PageOutcome } from '../support/api';
import { forEachDatabase } from '../support/databases';
import { newSignedInAccount } from '../support/pages';
import { syntheticMarketForSuite } from '../support/synthetic-market';

// The screener's column sets and its no-JavaScript "add to watchlist" through the page routes,
// with session cookies, on SQLite and PostgreSQL: save the shown columns from the results, pick a
// set (colset=…), the CSV's header, rename/delete, another user's set, refused input, and the
// answer of a row's add shown back on the same results (a flashed notice, not a dialog).

const { marketDb } = syntheticMarketForSuite('column-set-pages', { securities: 20, years: 2, seed: 11 });

const signIn = (email: string) => newSignedInAccount(email, { full_name: 'Column User' });

/** The notice a redirect flashed, as the next page's root loader reads it. */
async function flashedNotice(answer: PageOutcome) {
  const cookie = (answer.headers?.get('Set-Cookie') ?? '').split(';')[0];
  const root = await loadRootData(new Request(`http://localhost${answer.location ?? '/'}`, { headers: { Cookie: cookie } }));
  return root.body.notice;
}

type ScreenerData = {
  results: { columns: string[]; rows: { permaticker: number; ticker: string }[] };
  screen: { columns: string[] };
  columnSets: { id: string; name: string; columns: string[] }[];
};

forEachDatabase(
  'screener column sets and row notices (pages)',
  () => {
    let a: { cookie: string; id: string };
    let b: { cookie: string; id: string };
    beforeAll(async () => {
      a = await signIn('colpages-a@example.com');
      b = await signIn('colpages-b@example.com');
    });

    it('saves the shown columns from the results, picks the set again, and the CSV has the table’s columns', async () => {
      const shown = '/screener?r=price+%3E+0&cols=market_cap,P%2FE+(TTM),dividend_yield&sort=ticker:asc';
      const first = (await callPage(screenerRoute.loader, shown, a.cookie)).value as ScreenerData;
      expect(first.results.columns).toEqual(['price', 'market_cap', 'pe_ttm', 'dividend_yield']);
      const saved = await callPage(columnsRoute.action, '/screener/columns', a.cookie, {
        form: { intent: 'create', name: 'Value view', columns: first.results.columns.join(','), return_to: shown },
      });
      expect([saved.status, saved.location]).toEqual([302, shown]);
      expect(await flashedNotice(saved)).toEqual({ text: 'Saved the column set “Value view” (4 columns).', mode: 'success' });
      const [set] = await listColumnSets(a.id);
      expect(set.columns).toEqual(['price', 'market_cap', 'pe_ttm', 'dividend_yield']);

      // Later, on other columns: picking the set shows its columns, from page 1, the rest kept.
      const picked = await callPage(screenerRoute.loader, `/screener?r=price+%3E+0&col=ret_3m&page=2&colset=${set.id}`, a.cookie);
      expect(picked.status).toBe(302);
      expect(picked.location).toBe('/screener?r=price+%3E+0&col=price&col=market_cap&col=pe_ttm&col=dividend_yield');
      const page = (await callPage(screenerRoute.loader, picked.location ?? '', a.cookie)).value as ScreenerData;
      expect(page.results.columns).toEqual(set.columns);
      expect(page.columnSets.map((s) => s.name)).toEqual(['Value view']);
      const csv = await callPage(csvRoute.loader, (picked.location ?? '').replace('/screener', '/screener/csv'), a.cookie);
      const header = csv.text.split('\r\n')[0];
      expect(header).toBe(`ticker,name,sector,industry,exchange,Price,Market cap,${getMetric('pe_ttm')?.label},Dividend yield (%)`);
      // The page's form sends the results' query as one field.
      const fromForm = await callPage(
        screenerRoute.loader,
        `/screener?from=${encodeURIComponent('r=price+%3E+0&col=ret_3m')}&colset=${set.id}`,
        a.cookie,
      );
      expect(fromForm.location).toBe(picked.location);
      // "Default" drops the chosen columns.
      const back = await callPage(screenerRoute.loader, '/screener?col=pe_ttm&colset=default', a.cookie);
      expect(back.location).toBe('/screener');
    });

    it('renames and deletes through the page’s dialogs; user B gets 404 for A’s set everywhere', async () => {
      const [set] = await listColumnSets(a.id);
      for (const path of [`/screener/columns?modal=rename&id=${set.id}`, `/screener/columns?modal=delete&id=${set.id}`]) {
        expect((await callPage(columnsRoute.loader, path, b.cookie)).status).toBe(404);
      }
      expect((await callPage(screenerRoute.loader, `/screener?colset=${set.id}`, b.cookie)).status).toBe(404);
      for (const form of <Record<string, string>[]>[
        { intent: 'rename', id: set.id, name: 'Stolen', cancelled: 'false' },
        { intent: 'delete', id: set.id, confirmed: 'true', cancelled: 'false' },
      ]) {
        expect([form.intent, (await callPage(columnsRoute.action, '/screener/columns', b.cookie, { form })).status]).toEqual([
          form.intent,
          404,
        ]);
      }
      expect(((await callPage(columnsRoute.loader, '/screener/columns', b.cookie)).value as { sets: unknown[] }).sets).toEqual([]);

      const modal = (await callPage(columnsRoute.loader, `/screener/columns?modal=rename&id=${set.id}`, a.cookie)).value as {
        modal: { kind: string; fields: Record<string, string> };
      };
      expect(modal.modal).toMatchObject({ kind: 'prompt', fields: { intent: 'rename', id: set.id } });
      const renamed = await callPage(columnsRoute.action, '/screener/columns', a.cookie, {
        form: { intent: 'rename', id: set.id, name: 'Cheap', cancelled: 'false' },
      });
      expect(renamed.location).toBe('/screener/columns');
      expect(await flashedNotice(renamed)).toMatchObject({ text: 'The column set is now called “Cheap”.' });
      const tooLong = await callPage(columnsRoute.action, '/screener/columns', a.cookie, {
        form: { intent: 'rename', id: set.id, name: 'x'.repeat(101), cancelled: 'false' },
      });
      expect(tooLong.status).toBe(302);
      expect((await listColumnSets(a.id)).map((s) => s.name)).toEqual(['Cheap']);
      await callPage(columnsRoute.action, '/screener/columns', a.cookie, {
        form: { intent: 'delete', id: set.id, confirmed: 'true', cancelled: 'false' },
      });
      expect(await listColumnSets(a.id)).toEqual([]);
    });

    it('refuses bad names and columns back on the results with the reason, and stores nothing', async () => {
      const back = '/screener?r=price+%3E+0';
      const cases: [Record<string, string>, RegExp][] = [
        [{ name: '', columns: 'price' }, /Enter a name/],
        [{ name: 'n'.repeat(300), columns: 'price' }, /at most 100 characters/],
        [{ name: 'x', columns: Array.from({ length: 1000 }, () => 'price').join(',') }, /at most 30 columns \(got 1000\)/],
        [{ name: 'x', columns: 'price,revnue_ttm' }, /Unknown metric "revnue_ttm"/],
        [{ name: 'x', columns: '' }, /at least one column/],
      ];
      for (const [fields, message] of cases) {
        const answer = await callPage(columnsRoute.action, '/screener/columns', a.cookie, {
          form: { intent: 'create', ...fields, return_to: back },
        });
        expect([answer.status, answer.location]).toEqual([302, back]);
        const notice = await flashedNotice(answer);
        expect(notice?.mode).toBe('error');
        expect(notice?.text).toMatch(message);
      }
      // A return address elsewhere is not followed.
      const away = await callPage(columnsRoute.action, '/screener/columns', a.cookie, {
        form: { intent: 'create', name: 'x', columns: 'price', return_to: 'https://evil.example/' },
      });
      expect(away.location).toBe('/screener/columns');
      expect((await listColumnSets(a.id)).map((s) => s.name)).toEqual(['x']);
    });

    it('adds a row to the watchlist without JavaScript: back on the same results, the answer beside that row', async () => {
      const results = '/screener?r=price+%3E+0&sort=ticker:asc&size=25';
      const data = (await callPage(screenerRoute.loader, results, a.cookie)).value as ScreenerData;
      const row = data.results.rows[2];
      const form = { intent: 'add', permaticker: String(row.permaticker), redirect_to: `${results}#row-${row.permaticker}` };
      const added = await callPage(watchlistRoute.action, '/watchlist', a.cookie, { form });
      expect([added.status, added.location]).toEqual([302, `${results}#row-${row.permaticker}`]);
      expect(await flashedNotice(added)).toEqual({ text: `Added ${row.ticker} to My watchlist.`, mode: 'success', row: row.permaticker });
      const again = await callPage(watchlistRoute.action, '/watchlist', a.cookie, { form });
      expect(await flashedNotice(again)).toEqual({ text: `${row.ticker} is already on My watchlist.`, mode: 'info', row: row.permaticker });
      // The watchlist page's own adds still answer in its dialog.
      const own = await callPage(watchlistRoute.action, '/watchlist', a.cookie, { form: { intent: 'add', security: row.ticker } });
      expect(own.location).toBe('/watchlist');
      expect(await flashedNotice(own)).toBeNull();
    });
  },
  { env: { MARKET_DB: marketDb } },
);
