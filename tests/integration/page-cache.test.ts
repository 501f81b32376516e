import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commitSession, flashModal, getSession, setSignedIn } from '~/services/auth/session.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import { createUser } from '~/services/auth/users.server';
import { setDisabled } from '~/services/admin/users.server';
import { loadDemoUniverse } from '~/services/imports/load-demo.server';
import { silentProgress } from '~/services/imports/progress.server';
import { closeMarketReader, openMarketReader } from '~/services/market/store/open-store.server';
import { buildSnapshots } from '~/services/metrics/snapshots.server';
import { PAGE_CACHE_HEADER } from '~/services/page-cache/page-cache.server';
import { defaultWatchlistId } from '~/services/watchlist/watchlists.server';
import { forEachDatabase } from '../support/databases';
import { freePort } from '../support/free-port';

// The rendered-page cache (services/page-cache) in the built app: two app processes (two web
// servers as WEB_CONCURRENCY gives) on one database and one market store, read and changed over
// HTTP as a browser and an API client do. A page answered from the cache says so in its
// X-Page-Cache header; everything else is what a reader sees.

// A browser's: the app renders a bot's page (and Node's own fetch is one) whole, never from the cache.
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

type App = { url: string; child: ChildProcess; output: () => string };
type Read = { status: number; body: string; hit: boolean; nonce: string | null; location: string | null; setCookie: string | null };

async function startApp(env: Record<string, string>): Promise<App> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [path.resolve('scripts/start.mjs')], {
    env: { ...process.env, ...env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', JOBS_IN_APP: '0', QUARRY_SKIP_DEMO: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`The app stopped at start:\n${output}`);
    try {
      if ((await fetch(`${url}/login`)).ok) return { url, child, output: () => output };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`The app did not answer in 60 s:\n${output}`);
}

function stopApp(app: App | undefined): Promise<void> {
  if (!app || app.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    app.child.once('exit', () => resolve());
    app.child.kill('SIGTERM');
  });
}

async function read(app: App, pathAndQuery: string, cookie: string): Promise<Read> {
  const r = await fetch(app.url + pathAndQuery, { headers: { Cookie: cookie, 'User-Agent': BROWSER }, redirect: 'manual' });
  const body = await r.text();
  const nonce = /'nonce-([^']+)'/.exec(r.headers.get('Content-Security-Policy') ?? '')?.[1] ?? null;
  return {
    status: r.status,
    body,
    hit: r.headers.get(PAGE_CACHE_HEADER) === 'hit',
    nonce,
    location: r.headers.get('Location'),
    setCookie: r.headers.get('Set-Cookie'),
  };
}

function postForm(app: App, pathAndQuery: string, cookie: string, fields: Record<string, string>) {
  return fetch(app.url + pathAndQuery, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', Origin: app.url },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

/** The page's text as a reader reads it: without the comments React puts between text parts. */
function shown(r: Read): string {
  return r.body.replaceAll('<!-- -->', '');
}

function nonceAttributes(html: string): string[] {
  return [...html.matchAll(/\snonce="([^"]*)"/g)].map((m) => m[1]);
}

async function cookieOf(userId: string, fullName: string): Promise<string> {
  const session = await getSession(new Request('http://localhost/'));
  setSignedIn(session, await issueUserToken(userId), { full_name: fullName, profile_picture: null });
  return (await commitSession(session)).split(';')[0];
}

let marketDb = '';
beforeAll(async () => {
  // The built app, as `npm start` serves it (built only when the sources are newer than it;
  // `npm test` builds before the suites). Awaited, not run synchronously: a build of a minute
  // would otherwise stall the test worker's messages to vitest, which then gives up on it.
  const build = spawn(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  const status = await new Promise<number | null>((resolve) => build.once('exit', resolve));
  if (status !== 0) throw new Error('The app could not be built.');
}, 900_000);

forEachDatabase(
  'page cache',
  (target) => {
    let one: App | undefined;
    let two: App | undefined;
    let page = '';
    let ticker = '';
    let ada: { id: string; cookie: string; token: string; list: string };
    let bob: { id: string; cookie: string };
    let admin: { id: string };

    beforeAll(async () => {
      marketDb = path.join(target.dataDir, 'market.duckdb');
      await loadDemoUniverse(marketDb, { companies: 12, years: 3, seed: 5 }, silentProgress, {
        beforePublish: (work) => buildSnapshots({ marketDb: work }),
      });
      const reader = await openMarketReader(marketDb);
      const rows = await reader.all<{ permaticker: number; ticker: string }>(
        `SELECT permaticker, ticker FROM securities WHERE NOT is_delisted ORDER BY permaticker LIMIT 1`,
      );
      reader.close();
      closeMarketReader();
      page = `/company/${rows[0].permaticker}/overview`;
      ticker = rows[0].ticker;
      const a = await createUser({ email: 'ada@example.com', password: 'correct horse battery', full_name: 'Ada Cachewell', access: true });
      const b = await createUser({ email: 'bob@example.com', password: 'correct horse battery', full_name: 'Bob Otherton', access: true });
      const root = await createUser({
        email: 'root@example.com',
        password: 'correct horse battery',
        full_name: 'Root Admin',
        access: true,
        superuser: true,
      });
      ada = {
        id: a.id,
        cookie: await cookieOf(a.id, a.full_name),
        token: (await issueUserToken(a.id)).access_token,
        list: await defaultWatchlistId(a.id),
      };
      bob = { id: b.id, cookie: await cookieOf(b.id, b.full_name) };
      admin = { id: root.id };
      const env: Record<string, string> = { DATA_DIR: target.dataDir, MARKET_DB: marketDb };
      if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
      [one, two] = await Promise.all([startApp(env), startApp(env)]);
    }, 300_000);

    afterAll(async () => {
      await Promise.all([stopApp(one), stopApp(two)]);
    });

    it('answers a repeated read with the same page, a fresh nonce in its header and body', async () => {
      const miss = await read(one!, page, ada.cookie);
      expect(miss.status, `${miss.location}\n${one!.output()}`).toBe(200);
      expect(miss.hit).toBe(false);
      expect(miss.body).toContain('Ada Cachewell');
      const hit = await read(one!, page, ada.cookie);
      const again = await read(one!, page, ada.cookie);
      expect(hit).toMatchObject({ status: 200, hit: true, setCookie: null });
      expect(again.hit).toBe(true);
      for (const r of [miss, hit, again]) {
        expect(r.nonce).toBeTruthy();
        const attributes = nonceAttributes(r.body);
        expect(attributes.length).toBeGreaterThan(0);
        expect(new Set(attributes)).toEqual(new Set([r.nonce]));
      }
      expect(new Set([miss.nonce, hit.nonce, again.nonce]).size).toBe(3);
      expect(hit.body.split(hit.nonce!).join('N')).toBe(miss.body.split(miss.nonce!).join('N'));
    });

    it('never gives one reader the page kept for another', async () => {
      expect((await read(one!, page, ada.cookie)).hit).toBe(true);
      const first = await read(one!, page, bob.cookie);
      expect(first).toMatchObject({ status: 200, hit: false });
      expect(first.body).toContain('Bob Otherton');
      expect(first.body).not.toContain('Ada Cachewell');
      const second = await read(one!, page, bob.cookie);
      expect(second.hit).toBe(true);
      expect(second.body).toContain('Bob Otherton');
      expect(second.body).not.toContain('Ada Cachewell');
    });

    it('shows a watchlist change made through the page form at once, in both processes', async () => {
      for (const app of [one!, two!]) {
        await read(app, page, ada.cookie);
        const kept = await read(app, page, ada.cookie);
        expect(kept.hit).toBe(true);
        expect(shown(kept)).toContain(`Add ${ticker} to`);
      }
      const posted = await postForm(one!, `/company/${page.split('/')[2]}`, ada.cookie, {
        intent: 'watchlist-add',
        list: ada.list,
        redirect_to: page,
      });
      expect(posted.status).toBe(302);
      for (const app of [two!, one!]) {
        const after = await read(app, page, ada.cookie);
        expect(after).toMatchObject({ status: 200, hit: false });
        expect(shown(after)).toContain(`Remove ${ticker} from`);
      }
    });

    it('shows a watchlist change made through the JSON API at once, in both processes', async () => {
      for (const app of [one!, two!]) {
        await read(app, page, ada.cookie);
        expect(shown(await read(app, page, ada.cookie))).toContain(`Remove ${ticker} from`);
      }
      const removed = await fetch(`${two!.url}/api/v1/watchlists/${ada.list}/items/${page.split('/')[2]}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${ada.token}` },
      });
      expect(removed.status).toBeLessThan(300);
      for (const app of [one!, two!]) {
        const after = await read(app, page, ada.cookie);
        expect(after.hit).toBe(false);
        expect(shown(after)).toContain(`Add ${ticker} to`);
      }
    });

    it('keeps the reader’s pages when they ask for a backtest through the API and delete it, which those pages do not show', async () => {
      await read(one!, page, ada.cookie);
      expect((await read(one!, page, ada.cookie)).hit).toBe(true);
      const headers = { Authorization: `Bearer ${ada.token}`, 'Content-Type': 'application/json' };
      const posted = await fetch(`${one!.url}/api/v1/backtests`, {
        method: 'POST',
        headers: { ...headers, Prefer: 'respond-async' },
        body: JSON.stringify({
          screen: { rules: [], ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }] },
          params: { start: '1990-01-01', end: '2100-01-01', topN: 3 },
        }),
      });
      expect(posted.status, await posted.clone().text()).toBe(202);
      expect((await read(one!, page, ada.cookie)).hit).toBe(true);
      const { id } = (await posted.json()) as { id: string };
      const deleted = await fetch(`${one!.url}/api/v1/backtests/${id}`, { method: 'DELETE', headers });
      expect(deleted.status).toBe(204);
      expect((await read(one!, page, ada.cookie)).hit).toBe(true);
      // A write the pages do show still ends them (the watchlist tests above), and so does any
      // other write of the account: here its name, which the header shows.
      const renamed = await fetch(`${one!.url}/api/v1/auth/me`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ full_name: 'Ada Cachewell' }),
      });
      expect(renamed.status, await renamed.clone().text()).toBe(200);
      expect((await read(one!, page, ada.cookie)).hit).toBe(false);
    });

    it('never keeps a page that shows a flashed message', async () => {
      // The cookie a form's redirect leaves: the account's session with a message for the next page.
      const session = await getSession(new Request('http://localhost/', { headers: { Cookie: ada.cookie } }));
      flashModal(session, { kind: 'error', title: 'Watchlist', error: { detail: 'That list is full.' }, warning: true });
      const flashed = (await commitSession(session)).split(';')[0];
      for (let i = 0; i < 2; i++) {
        const r = await read(one!, page, flashed);
        expect(r).toMatchObject({ status: 200, hit: false });
        expect(r.body).toContain('That list is full.');
        expect(r.setCookie).toBeTruthy();
      }
      const plain = await read(one!, page, ada.cookie);
      expect(plain.body).not.toContain('That list is full.');
    });

    it('serves no kept page after the reader signs out', async () => {
      const cookie = await cookieOf(ada.id, 'Ada Cachewell');
      await read(one!, page, cookie);
      expect((await read(two!, page, cookie)).hit).toBe(false);
      expect((await read(two!, page, cookie)).hit).toBe(true);
      const out = await postForm(one!, '/logout', cookie, {});
      expect(out.status).toBe(302);
      for (const app of [two!, one!]) {
        const r = await read(app, page, cookie);
        expect(r.status).toBe(302);
        expect(r.hit).toBe(false);
        expect(r.body).not.toContain('Ada Cachewell');
      }
    });

    it('serves no kept page after an administrator disables the account', async () => {
      const cookie = await cookieOf(bob.id, 'Bob Otherton');
      for (const app of [one!, two!]) {
        await read(app, page, cookie);
        expect((await read(app, page, cookie)).hit).toBe(true);
      }
      await setDisabled(admin.id, bob.id, true);
      for (const app of [one!, two!]) {
        const r = await read(app, page, cookie);
        expect(r.status).toBe(302);
        expect(r.hit).toBe(false);
      }
    });
  },
  // One secret for this file's cookies and both app processes, whichever database suite runs first.
  { env: { SESSION_SECRET: 'page-cache-test-session-secret' } },
);
