// The route rules (who may open which page), as pure functions of a path and a caller, so the
// guard, the tests and the docs agree on one list.

/** Pages of the welcome layout: "no authentication needed". */
// /logout is not a page: it must work for every caller, whatever their access.
const NO_AUTH_PREFIXES = [
  '/logout',
  '/finish-profile-creation',
  '/forgot-password',
  '/login',
  '/oauth',
  '/otp',
  '/register',
  '/reset-password',
];

function matchesPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix + '/');
}

export function isNoAuthPath(path: string): boolean {
  return NO_AUTH_PREFIXES.some((p) => matchesPrefix(path, p));
}

/**
 * A user without has_access may only reach these pages; /company* only when not a guest.
 * `/oauth*` and `/data-browser*` are prefixes of any path (`/oauthx` included), as the spec's
 * asterisk says.
 */
export function allowedWithoutAccess(path: string, isGuest: boolean): boolean {
  const exact = ['/finish-profile-creation', '/otp', '/forgot-password', '/reset-password', '/register', '/login', '/profile'];
  if (exact.some((p) => matchesPrefix(path, p))) return true;
  if (path.startsWith('/oauth') || path.startsWith('/data-browser')) return true;
  if (!isGuest && path.startsWith('/company')) return true;
  // The profile page shows the account's own picture, so it is reachable wherever /profile is.
  if (!isGuest && matchesPrefix(path, '/uploads/avatars')) return true;
  return false;
}

export type RouteDecision = { redirect: string } | { allow: true };

export type CallerFacts = { isGuest: boolean; hasAccess: boolean; isSuperuser: boolean };

/** Step 3 of the guard (redirects from the route rules), after authentication. */
export function routeRedirect(path: string, caller: CallerFacts): RouteDecision {
  if (matchesPrefix(path, '/admin') && !caller.isSuperuser) return { redirect: '/' };
  if (!caller.hasAccess && !allowedWithoutAccess(path, caller.isGuest)) return { redirect: '/data-browser' };
  return { allow: true };
}

/**
 * /backtest needs screener_id or backtest_id, otherwise it goes to /screener. Only the
 * page itself: its sub-pages (methodology, shared links, CSV) have their own addresses.
 */
export function backtestQueryRedirect(url: URL): string | null {
  if (url.pathname.replace(/\/+$/, '') !== '/backtest') return null;
  const has = (k: string) => (url.searchParams.get(k) ?? '').trim() !== '';
  return has('screener_id') || has('backtest_id') ? null : '/screener';
}
