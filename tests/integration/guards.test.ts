import { expect, it } from 'vitest';
import * as adminRoute from '~/routes/_app.admin';
import * as backtestRoute from '~/routes/_app.backtest';
import * as dataBrowserRoute from '~/routes/_app.data-browser._index';
import * as homeRoute from '~/routes/_app._index';
import * as profileRoute from '~/routes/_app.profile';
import * as screenerRoute from '~/routes/_app.screener._index';
import * as watchlistRoute from '~/routes/_app.watchlist';
import * as loginRoute from '~/routes/_welcome.login';
import { commitSession, getSession, setGuestToken, setSignedIn } from '~/services/auth/session.server';
import { issueUserToken, revokeToken } from '~/services/auth/tokens.server';
import { runInRequestScope } from '~/services/http/request-scope.server';
import { createUser } from '~/services/auth/users.server';
import { forEachDatabase } from '../support/databases';
import { guestTokenIssuedInGuestMode } from '../support/pages';

// The guards (app/services/auth/guard.server.ts, access-rules.ts), exercised through real route
// loaders with real Requests and real session cookies, on SQLite and PostgreSQL.

type Loader = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown;

async function outcome(mod: { loader: unknown }, path: string, cookie?: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (cookie) headers.set('Cookie', cookie);
  const request = new Request(`http://localhost${path}`, { ...init, headers });
  try {
    const value = await (mod.loader as Loader)({ request, params: {}, context: {} });
    return { status: 200, location: null as string | null, setCookie: null as string | null, value };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { status: thrown.status, location: thrown.headers.get('Location'), setCookie: thrown.headers.get('Set-Cookie'), value: null };
  }
}

async function cookieFor(
  kind: 'guest' | { email: string; access?: boolean; superuser?: boolean },
): Promise<{ cookie: string; token: string }> {
  const session = await getSession(new Request('http://localhost/'));
  if (kind === 'guest') {
    const token = guestTokenIssuedInGuestMode();
    setGuestToken(session, token);
    return { cookie: (await commitSession(session)).split(';')[0], token: token.access_token };
  }
  const user = await createUser({
    email: kind.email,
    password: 'correct horse battery',
    full_name: 'Ada Lovelace King',
    access: kind.access,
    superuser: kind.superuser,
  });
  const token = await issueUserToken(user.id);
  setSignedIn(session, token, user);
  return { cookie: (await commitSession(session)).split(';')[0], token: token.access_token };
}

forEachDatabase('guards', () => {
  it('gives a visitor without a token a guest token and sends them back to the same page', async () => {
    const r = await outcome(dataBrowserRoute, '/data-browser?x=1');
    expect(r.status).toBe(302);
    expect(r.location).toBe('/data-browser?x=1');
    expect(r.setCookie).toMatch(/^__session=/);
    expect(r.setCookie).toMatch(/Max-Age=7776000/);
    expect(r.setCookie).toMatch(/SameSite=Lax/);
    expect(r.setCookie).toMatch(/HttpOnly/);
    const again = await outcome(dataBrowserRoute, '/data-browser?x=1', r.setCookie!.split(';')[0]);
    expect(again.status).toBe(200);
  });

  it('lets a guest browse the data browser only', async () => {
    const { cookie } = await cookieFor('guest');
    expect((await outcome(dataBrowserRoute, '/data-browser', cookie)).status).toBe(200);
    for (const [mod, path] of [
      [homeRoute, '/'],
      [screenerRoute, '/screener'],
      [watchlistRoute, '/watchlist'],
    ] as const) {
      const r = await outcome(mod, path, cookie);
      expect(r, path).toMatchObject({ status: 302, location: '/data-browser' });
    }
    // /profile needs a real account: a guest is asked to sign in.
    expect(await outcome(profileRoute, '/profile', cookie)).toMatchObject({ status: 302, location: '/login?redirectTo=%2Fprofile' });
    expect(await outcome(adminRoute, '/admin', cookie)).toMatchObject({ status: 302, location: '/' });
  });

  it('keeps a user without has_access on the allow-list', async () => {
    const { cookie } = await cookieFor({ email: 'noaccess@example.com' });
    expect((await outcome(profileRoute, '/profile', cookie)).status).toBe(200);
    expect((await outcome(dataBrowserRoute, '/data-browser', cookie)).status).toBe(200);
    expect(await outcome(screenerRoute, '/screener', cookie)).toMatchObject({ status: 302, location: '/data-browser' });
    expect(await outcome(homeRoute, '/', cookie)).toMatchObject({ status: 302, location: '/data-browser' });
  });

  it('opens every full-access page to a user with access, but not /admin', async () => {
    const { cookie } = await cookieFor({ email: 'member@example.com', access: true });
    for (const [mod, path] of [
      [homeRoute, '/'],
      [screenerRoute, '/screener'],
      [watchlistRoute, '/watchlist'],
      [profileRoute, '/profile'],
    ] as const) {
      expect((await outcome(mod, path, cookie)).status, path).toBe(200);
    }
    // Reached, not redirected: the page itself answers that there is no such screener.
    expect(await outcome(backtestRoute, '/backtest?screener_id=abc', cookie)).toMatchObject({ status: 404, location: null });
    expect(await outcome(adminRoute, '/admin', cookie)).toMatchObject({ status: 302, location: '/' });
  });

  it('opens /admin to a superuser', async () => {
    const { cookie } = await cookieFor({ email: 'root@example.com', access: true, superuser: true });
    const r = await outcome(adminRoute, '/admin', cookie);
    expect(r.status).toBe(200);
    expect(r.value).toMatchObject({ email: 'root@example.com' });
  });

  it('validates /backtest before anything else: no screener_id or backtest_id goes to /screener', async () => {
    expect(await outcome(backtestRoute, '/backtest')).toMatchObject({ status: 302, location: '/screener' });
    const { cookie } = await cookieFor({ email: 'bt@example.com', access: true });
    expect(await outcome(backtestRoute, '/backtest?foo=1', cookie)).toMatchObject({ status: 302, location: '/screener' });
  });

  it('logs out a visitor whose token was revoked and sends them to the data browser', async () => {
    const { cookie, token } = await cookieFor({ email: 'revoked@example.com', access: true });
    await revokeToken(token);
    const r = await outcome(screenerRoute, '/screener', cookie);
    expect(r).toMatchObject({ status: 302, location: '/data-browser' });
    const cleared = await getSession(new Request('http://localhost/', { headers: { Cookie: r.setCookie!.split(';')[0] } }));
    expect(cleared.get('accessToken')).toBeUndefined();
    expect(cleared.get('guest')).toBe(true);
  });

  it('resolves the caller once per page read (its loaders share it); the next read sees a revoked token', async () => {
    const { cookie, token } = await cookieFor({ email: 'memo@example.com', access: true });
    // One page read, as scripts/app-server.mjs runs it: the token is revoked between two loaders,
    // which still agree on who is calling (the page is answered as it began).
    const inOneRead = await runInRequestScope(async () => {
      const first = await outcome(screenerRoute, '/screener', cookie);
      await revokeToken(token);
      return [first, await outcome(watchlistRoute, '/watchlist', cookie)];
    });
    expect(inOneRead.map((r) => r.status)).toEqual([200, 200]);
    // The next page read — and any call outside a read, such as an action — asks the database again.
    expect(await runInRequestScope(() => outcome(screenerRoute, '/screener', cookie))).toMatchObject({
      status: 302,
      location: '/data-browser',
    });
    expect(await outcome(screenerRoute, '/screener', cookie)).toMatchObject({ status: 302, location: '/data-browser' });
  });

  it('never needs a token on the welcome pages', async () => {
    expect((await outcome(loginRoute, '/login')).status).toBe(200);
  });

  it('refuses a form posted from another site', async () => {
    const { cookie } = await cookieFor({ email: 'csrf@example.com', access: true });
    const request = new Request('http://localhost/profile', {
      method: 'POST',
      headers: { Cookie: cookie, Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'intent=delete-account&confirmed=true&cancelled=false',
    });
    const refused = await profileRoute.action({ request, params: {}, context: {} }).catch((e: unknown) => e);
    // A Response (not an Error), so Remix answers 403 instead of a 500 page.
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(403);
    expect(await (refused as Response).text()).toMatch(/another site/);
    // The account is still there.
    expect((await outcome(profileRoute, '/profile', cookie)).status).toBe(200);
  });
});

forEachDatabase(
  'guards without guest mode',
  () => {
    it('sends visitors without an account to /login', async () => {
      expect(await outcome(dataBrowserRoute, '/data-browser')).toMatchObject({ status: 302, location: '/login' });
      const { cookie } = await cookieFor('guest');
      expect(await outcome(dataBrowserRoute, '/data-browser', cookie)).toMatchObject({ status: 302, location: '/login' });
      expect((await outcome(loginRoute, '/login', cookie)).status).toBe(200);
    });
  },
  { env: { GUEST_MODE: '0' } },
);
