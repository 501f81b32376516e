import { matchRoutes, parsePath, type AgnosticRouteObject } from '@remix-run/router';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoizeRouteMatching } from './route-match-memo.server';

type R = AgnosticRouteObject;

/** A tree like the app's: a root, pathless layouts, params, an index, a splat. Fresh objects on every call. */
function tree(companyPath = 'company/:id'): R[] {
  return [
    {
      id: 'root',
      path: '',
      children: [
        { id: 'routes/login', path: 'login' },
        {
          id: 'routes/_app',
          children: [
            { id: 'routes/_app._index', index: true },
            {
              id: 'routes/_app.company.$id',
              path: companyPath,
              children: [
                { id: 'routes/_app.company.$id._index', index: true },
                { id: 'routes/_app.company.$id.overview', path: 'overview' },
                { id: 'routes/_app.company.$id.chart', path: 'chart' },
              ],
            },
            { id: 'routes/_app.admin', path: 'admin', caseSensitive: true },
            { id: 'routes/_app.$', path: '*' },
          ],
        },
      ],
    },
  ];
}

const PATHS = [
  '/',
  '/login',
  '/company/42/overview',
  '/company/AAPL/chart?range=Max',
  '/company/42',
  '/company/42/',
  '/company/42/nope',
  '/admin',
  '/ADMIN',
  '/a/b/c',
  '/company/%20x/overview',
];

/** A match without its route object, for comparing answers made from different trees. */
const plain = (answer: ReturnType<typeof matchRoutes>) =>
  answer?.map((m) => ({ id: m.route.id, params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase })) ?? null;

function memoized() {
  const router = { matchRoutes, parsePath };
  const counters = memoizeRouteMatching(router);
  return { match: router.matchRoutes as typeof matchRoutes, counters };
}

describe('memoizeRouteMatching', () => {
  it('answers as matchRoutes does, on the first call and the repeated ones, with the route objects of the tree given', () => {
    const { match, counters } = memoized();
    for (let round = 0; round < 3; round++) {
      const routes = tree();
      for (const path of PATHS) {
        const expected = matchRoutes(routes, path);
        const got = match(routes, path);
        expect(plain(got), `${path} (round ${round})`).toEqual(plain(expected));
        got?.forEach((m, i) => expect(m.route).toBe(expected?.[i].route));
      }
      for (const location of [{ pathname: '/company/7/chart' }, { pathname: '/login', search: '?x=1' }]) {
        expect(plain(match(routes, location))).toEqual(plain(matchRoutes(routes, location)));
      }
      expect(plain(match(routes, '/base/company/9/overview', '/base'))).toEqual(
        plain(matchRoutes(routes, '/base/company/9/overview', '/base')),
      );
      expect(match(routes, '/elsewhere', '/base')).toBeNull();
    }
    // Asked 3 × (PATHS + 4) times; '/login' with a query string is the path of '/login' again.
    expect(counters.misses()).toBe(PATHS.length + 3);
    expect(counters.hits()).toBe(3 * (PATHS.length + 4) - (PATHS.length + 3));
  });

  it('gives every answer its own params object, shared by its matches as matchRoutes does', () => {
    const { match } = memoized();
    const routes = tree();
    const first = match(routes, '/company/42/overview');
    (first![0].params as Record<string, string>).id = 'changed';
    const second = match(routes, '/company/42/overview');
    expect(second![2].params).toEqual({ id: '42' });
    expect(second![0].params).toBe(second![2].params);
  });

  it('keeps trees of another shape apart', () => {
    const { match } = memoized();
    expect(match(tree(), '/company/42/overview')?.at(-1)?.route.id).toBe('routes/_app.company.$id.overview');
    const other = tree('firm/:id');
    expect(plain(match(other, '/company/42/overview'))).toEqual(plain(matchRoutes(other, '/company/42/overview')));
    expect(match(other, '/company/42/overview')?.at(-1)?.route.id).toBe('routes/_app.$');
    expect(match(other, '/firm/42/overview')?.at(-1)?.params).toEqual({ id: '42' });
  });

  it('leaves trees whose routes have no ids, or repeat one, to matchRoutes', () => {
    const { match, counters } = memoized();
    const noIds: R[] = [{ path: 'a', children: [{ path: ':x' }] }];
    const repeated: R[] = [
      { id: 'x', path: 'a' },
      { id: 'x', path: 'b' },
    ];
    for (let i = 0; i < 2; i++) {
      expect(plain(match(noIds, '/a/1'))).toEqual(plain(matchRoutes(noIds, '/a/1')));
      expect(match(repeated, '/b')?.[0].route).toBe(repeated[1]);
    }
    expect(counters.hits() + counters.misses()).toBe(0);
  });

  it('installs once: a second call keeps the first memo', () => {
    const router = { matchRoutes, parsePath };
    const counters = memoizeRouteMatching(router);
    const installed = router.matchRoutes;
    expect(memoizeRouteMatching(router)).toBe(counters);
    expect(router.matchRoutes).toBe(installed);
  });

  it('is installed where Remix and React Router find it: the router module the HTTP server resolves is theirs', () => {
    const fromServer = createRequire(path.resolve('scripts/app-server.mjs'));
    const router = fromServer('@remix-run/router');
    for (const user of ['@remix-run/server-runtime', '@remix-run/react', 'react-router', 'react-router-dom']) {
      expect(createRequire(fromServer.resolve(user))('@remix-run/router'), user).toBe(router);
    }
  });
});
