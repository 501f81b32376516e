import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decide, decideRoute, ROUTE_RULES, type RouteId, type RouteRule, type Who } from '~/services/auth/access-rules';
import { guard, requireUser } from '~/services/auth/guard.server';
import { commitSession, getSession, setGuestToken } from '~/services/auth/session.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import { createUser } from '~/services/auth/users.server';
import { callRoute, type RouteModule } from '../support/api';
import { contractProblem } from '../support/api-contract';
import { useDatabase } from '../support/databases';
import { guestTokenIssuedInGuestMode, sessionCookieFor } from '../support/pages';

// The access matrix: every route module of app/routes (the route manifest Remix builds from the
// folder) × five callers (anonymous, guest token, no access, access, superuser), with guest mode
// on and off. Each route's rule comes from ROUTE_RULES; the page guard and the JSON API must give
// the same decision: where the page redirects, the API answers 401/403 with {"detail"} naming
// what is needed, and where the page opens, the API does not refuse.

const ROUTES_DIR = path.resolve(__dirname, '../../app/routes');
const routeModules = import.meta.glob<RouteModule>('../../app/routes/*.tsx');

function manifestIds(): string[] {
  const files = readdirSync(ROUTES_DIR).filter((f) => /\.(tsx|ts)$/.test(f) && !/\.test\.tsx?$/.test(f));
  return ['root', ...files.map((f) => f.replace(/\.tsx?$/, ''))];
}

const SAMPLE_PARAMS: Record<string, string> = {
  id: '1',
  permaticker: '1',
  metric: 'revenue',
  token: 'no-such-token',
  file: 'no-such-build.json',
  subscription_id: '1',
  variant_id: '1',
  provider: 'google',
  '*': 'no-such-page',
};

/** The URL path and params of a flat-routes id: `_app.company.$id.chart` → /company/1/chart. */
function sampleOf(id: string): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const segments = id
    .split(/\.(?![^[]*\])/)
    .filter((s) => !s.startsWith('_') || s === '_index')
    .map((s) => {
      if (s === '_index') return '';
      if (s === '$') {
        params['*'] = SAMPLE_PARAMS['*'];
        return params['*'];
      }
      if (s.startsWith('$')) {
        const name = s.slice(1);
        params[name] = SAMPLE_PARAMS[name] ?? 'x';
        return params[name];
      }
      return s.replace(/_$/, '').replace(/\[\.\]/g, '.');
    })
    .filter((s) => s !== '');
  // The API documents its index routes with the trailing slash (GET /api/v1/subscription/).
  const trailing = id.startsWith('api.') && id.endsWith('._index') ? '/' : '';
  return { path: '/' + segments.join('/') + trailing, params };
}

type CallerName = 'anonymous' | 'guest' | 'no access' | 'access' | 'superuser';
type Caller = { name: CallerName; who: Who; token?: string; cookie?: string; userId?: string };

async function guestCaller(): Promise<Caller> {
  // Issued while guest mode is on; with it off, the same token must stop working.
  const token = guestTokenIssuedInGuestMode();
  const session = await getSession(new Request('http://localhost/'));
  setGuestToken(session, token);
  return {
    name: 'guest',
    who: { isGuest: true, hasAccess: false, isSuperuser: false },
    token: token.access_token,
    cookie: (await commitSession(session)).split(';')[0],
  };
}

async function userCaller(name: CallerName, opts: { access: boolean; superuser: boolean }): Promise<Caller> {
  const user = await createUser({
    email: `${name.replace(' ', '-')}@example.com`,
    password: 'correct horse battery',
    full_name: 'Matrix Caller',
    access: opts.access,
    superuser: opts.superuser,
  });
  const token = await issueUserToken(user.id);
  return {
    name,
    userId: user.id,
    who: { isGuest: false, hasAccess: user.has_access, isSuperuser: user.is_superuser },
    token: token.access_token,
    cookie: (await sessionCookieFor(user)).cookie,
  };
}

/** What the page guard does for `path`: 'open' or the redirect it throws. */
type PageAnswer = { open: true } | { redirect: string; setCookie: string | null };

/** `account`: the guard of pages that need a real account (requireUser), as /profile uses. */
async function pageOutcome(pathWithQuery: string, caller: Caller, account = false): Promise<PageAnswer> {
  const headers = new Headers();
  if (caller.cookie) headers.set('Cookie', caller.cookie);
  try {
    await (account ? requireUser : guard)(new Request(`http://localhost${pathWithQuery}`, { headers }));
    return { open: true };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { redirect: thrown.headers.get('Location') ?? '', setCookie: thrown.headers.get('Set-Cookie') };
  }
}

/** The page decision for a path, with an anonymous visitor following the guest-token bounce. */
async function pageDecision(pathWithQuery: string, caller: Caller, account = false): Promise<{ open: true } | { redirect: string }> {
  const first = await pageOutcome(pathWithQuery, caller, account);
  if ('open' in first) return first;
  if (caller.name === 'anonymous' && first.redirect === pathWithQuery && first.setCookie) {
    // The page hands a token-less visitor a guest token and sends them back: they are a guest.
    const cookie = first.setCookie.split(';')[0];
    const again = await pageOutcome(pathWithQuery, { ...caller, cookie, name: 'guest' }, account);
    return 'open' in again ? again : { redirect: again.redirect };
  }
  return { redirect: first.redirect };
}

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;

type RouteFn = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown;

/**
 * Calls an API route module. Refusals are held against the API contract here; other answers
 * are not, since without a market store they are 503s this matrix is not about.
 */
async function callApi(mod: RouteModule, method: string, p: string, params: Record<string, string>, token?: string) {
  const headers = new Headers();
  if (token) headers.set('Authorization', `bearer ${token}`);
  let body: string | undefined;
  if (method !== 'GET') {
    headers.set('Content-Type', 'application/json');
    body = '{}';
  }
  const fn = (method === 'GET' ? mod.loader : mod.action) as RouteFn;
  let answer: unknown;
  try {
    answer = await fn({ request: new Request(`http://localhost${p}`, { method, headers, body }), params, context: {} });
  } catch (thrown) {
    answer = thrown;
  }
  if (!(answer instanceof Response)) return { status: 200, body: answer, problem: null };
  const text = await answer.text();
  const json: unknown = text && answer.headers.get('Content-Type')?.includes('json') ? JSON.parse(text) : text;
  const problem = [401, 403].includes(answer.status)
    ? contractProblem(method, p, answer.status, answer.headers.get('Content-Type') ?? '', json)
    : null;
  return { status: answer.status, body: json, problem };
}

function matrix(guestMode: boolean) {
  describe(`with GUEST_MODE=${guestMode ? '1' : '0'}`, () => {
    useDatabase('sqlite', `access-matrix-${guestMode}`, { env: { GUEST_MODE: guestMode ? '1' : '0' } });
    const callers: Caller[] = [];
    beforeAll(async () => {
      callers.length = 0;
      callers.push({ name: 'anonymous', who: 'anonymous' });
      callers.push(await guestCaller());
      callers.push(await userCaller('no access', { access: false, superuser: false }));
      callers.push(await userCaller('access', { access: true, superuser: false }));
      callers.push(await userCaller('superuser', { access: true, superuser: true }));
    });

    it('every page refuses exactly where the rule table refuses, with the same redirect', async () => {
      let refusals = 0;
      for (const id of Object.keys(ROUTE_RULES) as RouteId[]) {
        const rule: RouteRule = ROUTE_RULES[id];
        if (rule.kind !== 'page') continue;
        const { path: p, params } = sampleOf(id);
        const url = p === '/backtest' ? '/backtest?screener_id=x' : p;
        const mod = await routeModules[`../../app/routes/${id}.tsx`]();
        for (const caller of callers) {
          const expected = decide(p, caller.who, { guestMode });
          const guarded = await pageDecision(url, caller);
          const label = `${id} as ${caller.name}`;
          if ('refuse' in expected) {
            refusals++;
            expect(guarded, label).toEqual({ redirect: expected.refuse.redirect });
            // The route module itself answers that redirect (it calls the guard before anything else).
            const method = mod.loader ? 'GET' : 'POST';
            const answer = await callRoute(mod, {
              method,
              path: url,
              params,
              cookie: caller.cookie,
              headers: { Origin: 'http://localhost' },
            });
            if (caller.name !== 'anonymous' || !guestMode) {
              expect(answer?.status, label).toBe(302);
              expect(answer?.location?.split('?')[0], label).toBe(expected.refuse.redirect.split('?')[0]);
            }
          } else {
            expect(guarded, label).toEqual({ open: true });
          }
        }
      }
      expect(refusals).toBeGreaterThan(0);
    });

    it('every API route answers as its page: 401/403 {"detail"} where the page redirects, no refusal where it opens', async () => {
      // Signing out revokes the token and DELETE /api/v1/auth/me deletes the account: those last.
      const last: RouteId[] = ['api.v1.auth.logout', 'api.v1.auth.me'];
      const ids = [...(Object.keys(ROUTE_RULES) as RouteId[]).filter((id) => !last.includes(id)), ...last];
      for (const id of ids) {
        const rule: RouteRule = ROUTE_RULES[id];
        if (rule.kind === 'page' || rule.kind === 'layout') continue;
        const { path: p, params } = sampleOf(id);
        const mod = await routeModules[`../../app/routes/${id}.tsx`]();
        let answered = 0;
        for (const caller of callers) {
          if (caller.userId) caller.token = (await issueUserToken(caller.userId)).access_token;
          if (rule.kind === 'api' || rule.kind === 'account') {
            // The page the API mirrors decides the same way.
            // /backtest asks for a screener first (page validation); the access rules follow it.
            const pageUrl = rule.as === '/backtest' ? '/backtest?screener_id=x' : rule.as;
            const page = await pageDecision(pageUrl, caller, rule.kind === 'account');
            const expected = decideRoute(id, caller.who, { guestMode });
            if ('refuse' in expected) expect(page, `${pageUrl} as ${caller.name}`).toMatchObject({ redirect: expected.refuse.redirect });
            else expect(page, `${pageUrl} as ${caller.name}`).toEqual({ open: true });
          }
          for (const method of METHODS) {
            const fn = method === 'GET' ? mod.loader : mod.action;
            if (!fn) continue;
            const answer = await callApi(mod, method, p, params, caller.token);
            if (answer.status === 405) continue;
            const expected = decideRoute(id, caller.who, { guestMode, method });
            answered++;
            const label = `${method} ${p} (${id}) as ${caller.name}`;
            if ('refuse' in expected) {
              expect({ status: answer.status, body: answer.body, problem: answer.problem }, label).toEqual({
                status: expected.refuse.status,
                body: { detail: expected.refuse.detail },
                problem: null,
              });
            } else if (rule.kind !== 'open') {
              expect([401, 403], label).not.toContain(answer.status);
            }
          }
        }
        expect(answered, `${id} answered no method but 405`).toBeGreaterThan(0);
      }
    });
  });
}

describe('the access matrix', () => {
  it('has a rule for every route module, and no rule for a route that does not exist', () => {
    expect(manifestIds().sort()).toEqual(Object.keys(ROUTE_RULES).sort());
  });

  it('derives sample addresses from route ids', () => {
    expect(sampleOf('_app.company.$id.chart')).toEqual({ path: '/company/1/chart', params: { id: '1' } });
    expect(sampleOf('_app.backtest_.shared.$token')).toEqual({
      path: '/backtest/shared/no-such-token',
      params: { token: 'no-such-token' },
    });
    expect(sampleOf('api.openapi[.]json').path).toBe('/api/openapi.json');
    expect(sampleOf('_app._index').path).toBe('/');
  });

  matrix(true);
  matrix(false);
});
