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

// ---------------------------------------------------------------------------------------------
// One decision for every caller and every route.
//
// `decide` is what the page guard and the JSON API both ask. A page turns a refusal into its
// redirect; the API into its status and {"detail"}. ROUTE_RULES names, for every route module in
// app/routes, which page's rule decides it: tests/integration/access-matrix.test.ts fails for a
// route module that is missing here, so a new route cannot ship without a rule.

/** Who is asking: nobody (no token at all), or the facts of a token's holder. */
export type Who = 'anonymous' | CallerFacts;

export type Need = 'sign-in' | 'account' | 'access' | 'superuser';

export type Refusal = { need: Need; redirect: string; status: 401 | 403; detail: string };

export type Decision = { allow: true } | { refuse: Refusal };

export const NEEDS: Record<Need, { status: 401 | 403; detail: string }> = {
  'sign-in': { status: 401, detail: 'Not authenticated: send a token from signing in (guest tokens work only while guest mode is on).' },
  account: { status: 403, detail: 'Guest session: sign in or register to get an account.' },
  access: {
    status: 403,
    detail:
      'Your account has no access to this yet (has_access is false): finish your profile and, where billing is on, ' +
      'subscribe. Until then only the data browser, company pages and your profile are open.',
  },
  superuser: { status: 403, detail: 'Only a superuser may do this.' },
};

/** A guest token while guest mode is off: the tokens handed out before stop working too. */
export const GUEST_MODE_OFF_DETAIL = 'Guest access is turned off: sign in or register.';

const GUEST_ACCESS_DETAIL = 'Guest session: guests may only use the data browser. Sign in or register to get an account.';

function refuse(need: Need, redirect: string, detail = NEEDS[need].detail): Decision {
  return { refuse: { need, redirect, status: NEEDS[need].status, detail } };
}

/**
 * The rule for `path` and `who`. Anonymous callers are guests when guest mode is on (the pages
 * hand them a guest token on their first visit), otherwise they must sign in.
 */
export function decide(path: string, who: Who, opts: { guestMode: boolean }): Decision {
  if (isNoAuthPath(path)) return { allow: true };
  if (!opts.guestMode && who !== 'anonymous' && who.isGuest) return refuse('sign-in', '/login', GUEST_MODE_OFF_DETAIL);
  if (!opts.guestMode && who === 'anonymous') return refuse('sign-in', '/login');
  const facts: CallerFacts = who === 'anonymous' ? { isGuest: true, hasAccess: false, isSuperuser: false } : who;
  const page = routeRedirect(path, facts);
  if ('allow' in page) return page;
  // Without any token, what is missing first is signing in (401), wherever a guest is refused.
  if (who === 'anonymous') return refuse('sign-in', page.redirect);
  if (page.redirect === '/') return refuse('superuser', page.redirect);
  return refuse('access', page.redirect, facts.isGuest ? GUEST_ACCESS_DETAIL : NEEDS.access.detail);
}

/** Like `decide`, for things only a real account has (its profile, its billing). */
export function decideForAccount(path: string, who: Who, opts: { guestMode: boolean }): Decision {
  const d = decide(path, who, opts);
  if ('refuse' in d) return d;
  const login = `/login?redirectTo=${encodeURIComponent(path)}`;
  // No token at all is "sign in" (401); a guest's token is "this needs an account" (403).
  if (who === 'anonymous') return refuse('sign-in', login);
  if (who.isGuest) return refuse('account', login);
  return d;
}

/**
 * - `page`: an HTML page or download; its own path decides (the guard).
 * - `layout`: a pathless layout; it guards nothing, each child page calls the guard.
 * - `api`: a JSON API route; decided as the page `as` (the page that shows the same data).
 * - `account`: like `api`, and it needs a real account (guests are asked to sign in).
 * - `self`: the caller's own record; reading it takes any valid token (a guest is told it is
 *   one), changing it takes an account, as `account`.
 * - `token`: any valid token, guests included (signing out).
 * - `open`: needs no caller: signing in, public metadata, the payment provider's webhook.
 */
export type RouteRule =
  | { kind: 'page' }
  | { kind: 'layout' }
  | { kind: 'api'; as: string }
  | { kind: 'account'; as: string }
  | { kind: 'self' }
  | { kind: 'token' }
  | { kind: 'open'; why: string };

const page = { kind: 'page' } as const;
const api = (as: string) => ({ kind: 'api', as }) as const;
const open = (why: string) => ({ kind: 'open', why }) as const;
const account = { kind: 'account', as: '/profile' } as const;

/** Every route module of app/routes (by Remix route id, without `routes/`) and its rule. */
export const ROUTE_RULES = {
  root: { kind: 'layout' },
  _app: { kind: 'layout' },
  _welcome: { kind: 'layout' },
  '_app.$': open('a path no route matches: "Page not found" for everyone'),
  '_app._index': page,
  '_app.admin': page,
  '_app.admin_.users.$id': page,
  '_app.backtest': page,
  '_app.backtest_.csv': page,
  '_app.backtest_.methodology': page,
  '_app.backtest_.shared.$token': page,
  '_app.company.$id._index': page,
  '_app.company.$id.chart': page,
  '_app.company.$id.dividend': page,
  '_app.company.$id.financial': page,
  '_app.company.$id.overview': page,
  '_app.company.$id': page,
  '_app.company.$id.valuation': page,
  '_app.company._index': page,
  '_app.data-browser.$permaticker.$metric': page,
  '_app.data-browser._index': page,
  '_app.profile': page,
  '_app.screener._index': page,
  '_app.screener.columns': page,
  '_app.screener.csv': page,
  '_app.screener.manage': page,
  '_app.screener.shared.$token': page,
  '_app.watchlist.csv': page,
  '_app.watchlist': page,
  '_welcome.finish-profile-creation': page,
  '_welcome.forgot-password': page,
  '_welcome.login': page,
  '_welcome.oauth.$id': page,
  '_welcome.oauth._index': page,
  '_welcome.otp': page,
  '_welcome.register': page,
  '_welcome.reset-password': page,
  logout: page,
  'profile.billing-portal.$subscription_id': page,
  'profile.checkout': page,
  'uploads.avatars.$file': page,
  'api.apiurl': open('where the API lives, read before signing in'),
  'api.openapi[.]json': open('the API description'),
  'builds.latest[.]json': open('build update checks'),
  'builds.meta.$file': open('build update checks'),
  'api.v1.auth.signin': open('signing in'),
  'api.v1.auth.signin.$provider': open('social sign-in'),
  'api.v1.auth.signin.guest': open('getting a guest token (refused while guest mode is off)'),
  'api.v1.auth.signin.otp.verify': open('signing in'),
  'api.v1.auth.reset-password': open('password reset'),
  'api.v1.auth.reset-password-confirm': open('password reset'),
  'api.v2.auth.signup': open('registering'),
  'api.v1.billing.webhook': open('the payment provider, authenticated by its signature'),
  'api.v1.auth.logout': { kind: 'token' },
  'api.v1.auth.me': { kind: 'self' },
  'api.v1.auth.me.picture': account,
  'api.v1.subscription._index': account,
  'api.v1.subscription.$subscription_id': account,
  'api.v1.variant.$variant_id': account,
  'api.v1.order.init-checkout': account,
  'api.v1.backtests': api('/backtest'),
  'api.v1.backtests.$id': api('/backtest'),
  'api.v1.backtests.$id.trades': api('/backtest'),
  'api.v1.backtests.$id.holdings': api('/backtest'),
  'api.v1.backtests.$id.rebalances.$n': api('/backtest'),
  'api.v1.screeners': api('/screener'),
  'api.v1.screeners.$id': api('/screener'),
  'api.v1.screener.run': api('/screener'),
  'api.v1.screener.column-sets': api('/screener'),
  'api.v1.screener.column-sets.$id': api('/screener'),
  'api.v1.watchlists': api('/watchlist'),
  'api.v1.watchlists.$id': api('/watchlist'),
  'api.v1.watchlists.$id.items': api('/watchlist'),
  'api.v1.watchlists.$id.items.$permaticker': api('/watchlist'),
  'api.v1.companies': api('/company'),
  'api.v1.companies.$id': api('/company'),
  'api.v1.company-overview.$id': api('/company'),
  'api.v1.company-prices.$id': api('/company'),
  'api.v1.prices.$permaticker': api('/company'),
  'api.v1.dividends.$id': api('/company'),
  'api.v1.financials.$id': api('/company'),
  'api.v1.valuation.$id': api('/company'),
  'api.v1.data-browser.$permaticker.$metric': api('/data-browser'),
  'api.v1.data.$permaticker.$metric': api('/data-browser'),
  'api.v1.metrics': api('/data-browser'),
  'api.v1.market-overview': api('/'),
} as const satisfies Record<string, RouteRule>;

export type RouteId = keyof typeof ROUTE_RULES;

function decideAnyToken(who: Who, opts: { guestMode: boolean }): Decision {
  if (who === 'anonymous') return refuse('sign-in', '/login');
  if (who.isGuest && !opts.guestMode) return refuse('sign-in', '/login', GUEST_MODE_OFF_DETAIL);
  return { allow: true };
}

/** The decision for a caller of an API route (`self` and `open` routes never refuse here). */
export function decideRoute(id: RouteId, who: Who, opts: { guestMode: boolean; method?: string }): Decision {
  const rule: RouteRule = ROUTE_RULES[id];
  switch (rule.kind) {
    case 'api':
      return decide(rule.as, who, opts);
    case 'account':
      return decideForAccount(rule.as, who, opts);
    case 'self':
      if (opts.method !== undefined && opts.method !== 'GET' && opts.method !== 'HEAD') return decideForAccount('/profile', who, opts);
      return decideAnyToken(who, opts);
    case 'token':
      return decideAnyToken(who, opts);
    default:
      return { allow: true };
  }
}
