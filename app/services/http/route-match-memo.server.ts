import { LRUCache } from 'lru-cache';

// Matching a path against the route tree is a large part of a page's server time: every call of
// @remix-run/router's matchRoutes flattens the whole tree (~85 routes), ranks its branches and
// compiles their patterns into regular expressions again, and one page request matches 5–6 times
// (the request handler, the React router, the partial manifest of <Scripts> for every parent
// path). The answer depends only on the tree's shape (ids, paths, index and case flags, nesting)
// and the path, so it is kept per shape and path, and rebuilt with the route objects of the tree
// at hand (Remix makes new route objects for every render). The HTTP server installs it on the
// router module that Remix and React Router call (scripts/app-server.mjs).

type RouteLike = { id?: unknown; path?: unknown; index?: unknown; caseSensitive?: unknown; children?: unknown };
type Match = { params: Record<string, string | undefined>; pathname: string; pathnameBase: string; route: RouteLike };
type MatchRoutes = (routes: RouteLike[], location: string | { pathname?: string }, basename?: string) => Match[] | null;
type RouterModule = { matchRoutes: MatchRoutes; parsePath: (path: string) => { pathname?: string } };

/** A tree's shape: a number for its structure, and its routes by id. Null where ids are missing or repeated. */
type Shape = { key: number; byId: Map<string, RouteLike> } | null;
/** One answer, without the route objects: the route ids with the matched parts of the path. */
type Kept = { params: Record<string, string | undefined>; matches: { id: string; pathname: string; pathnameBase: string }[] } | null;

const MEMO = Symbol.for('quarry.routeMatchMemo');
const MARKS = ['\u0001', '\u0002', '\u0003', '\u0004'];
const marked = (text: string) => MARKS.some((m) => text.includes(m));

function describe(routes: unknown, byId: Map<string, RouteLike>, out: string[]): boolean {
  if (!Array.isArray(routes)) return routes === undefined;
  out.push('\u0003');
  for (const route of routes as RouteLike[]) {
    if (typeof route !== 'object' || route === null || typeof route.id !== 'string' || byId.has(route.id)) return false;
    byId.set(route.id, route);
    const path = route.path === undefined ? '' : route.path;
    // Fields and children are marked by control characters no route id or path holds (a tree with one is not kept).
    if (typeof path !== 'string' || marked(route.id) || marked(path)) return false;
    out.push(
      route.id,
      '\u0001',
      route.path === undefined ? '\u0002' : path,
      '\u0001',
      route.index ? '1' : '0',
      route.caseSensitive === true ? '1' : '0',
    );
    if (!describe(route.children, byId, out)) return false;
  }
  out.push('\u0004');
  return true;
}

/**
 * Replaces `router.matchRoutes` with a memo of it (once; again is a no-op). Returns the memo's
 * counters, for tests. `maxPaths` bounds the paths kept (least recently used go first).
 */
export function memoizeRouteMatching(
  module: { matchRoutes: unknown; parsePath: unknown },
  maxPaths = 10_000,
): { hits: () => number; misses: () => number } {
  const router = module as RouterModule;
  const existing = (router.matchRoutes as MatchRoutes & { [MEMO]?: { hits: () => number; misses: () => number } })[MEMO];
  if (existing) return existing;
  const original = router.matchRoutes;
  const shapes = new WeakMap<object, Shape>();
  const shapeKeys = new Map<string, number>();
  const kept = new LRUCache<string, { answer: Kept }>({ max: maxPaths });
  let hits = 0;
  let misses = 0;

  const shapeOf = (routes: RouteLike[]): Shape => {
    let shape = shapes.get(routes);
    if (shape !== undefined) return shape;
    const byId = new Map<string, RouteLike>();
    const out: string[] = [];
    if (describe(routes, byId, out)) {
      const text = out.join('');
      let key = shapeKeys.get(text);
      if (key === undefined) {
        // Trees of one build share one shape; a development server's rebuilds add a few.
        if (shapeKeys.size >= 64) shapeKeys.clear();
        key = shapeKeys.size + 1;
        shapeKeys.set(text, key);
        kept.clear();
      }
      shape = { key, byId };
    } else shape = null;
    shapes.set(routes, shape);
    return shape;
  };

  const memo: MatchRoutes = function matchRoutes(routes, location, basename = '/') {
    const shape = Array.isArray(routes) ? shapeOf(routes) : null;
    const pathname = typeof location === 'string' ? router.parsePath(location).pathname : location?.pathname;
    if (!shape || typeof basename !== 'string') return original(routes, location, basename);
    const cacheKey = `${shape.key}\n${basename}\n${pathname ?? ''}`;
    const known = kept.get(cacheKey);
    if (known) {
      hits++;
      if (!known.answer) return null;
      const params = { ...known.answer.params };
      return known.answer.matches.map((m) => ({
        params,
        pathname: m.pathname,
        pathnameBase: m.pathnameBase,
        route: shape.byId.get(m.id) as RouteLike,
      }));
    }
    misses++;
    const answer = original(routes, location, basename);
    if (answer === null) kept.set(cacheKey, { answer: null });
    else if (answer.every((m) => typeof m.route.id === 'string' && shape.byId.get(m.route.id) === m.route)) {
      kept.set(cacheKey, {
        answer: {
          params: { ...answer[answer.length - 1]?.params },
          matches: answer.map((m) => ({ id: m.route.id as string, pathname: m.pathname, pathnameBase: m.pathnameBase })),
        },
      });
    }
    return answer;
  };
  const counters = { hits: () => hits, misses: () => misses };
  Object.defineProperty(memo, MEMO, { value: counters });
  router.matchRoutes = memo;
  return counters;
}
