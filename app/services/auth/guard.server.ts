import { redirect } from '@remix-run/node';
import { config } from '../config.server';
import { assertSameOrigin } from '../http/csrf.server';
import { isDomainError } from '../http/errors';
import { pageError } from '../http/page-errors';
import { backtestQueryRedirect, decide, isNoAuthPath } from './access-rules';
import { commitSession, getSession, setGuestToken, setSignedOut, type QuarrySession } from './session.server';
import { issueGuestToken, resolveCaller } from './tokens.server';
import type { AccountUser, Caller } from './types';

// The one guard every loader and action calls first (loaders run in parallel, so a layout's
// guard protects nothing). Order: page validation, authentication, redirects.

export type Guarded = {
  caller: Caller;
  /** The signed-in account, or null for a guest. */
  user: AccountUser | null;
  session: QuarrySession;
};

export type GuardOptions = {
  /** Extra page validation, run first; return a path to redirect to. */
  validate?: (url: URL) => string | null;
};

const PAGE_VALIDATIONS: Array<{ prefix: string; check: (url: URL) => string | null }> = [
  { prefix: '/backtest', check: backtestQueryRedirect },
];

async function callerFromSession(session: QuarrySession): Promise<Caller | 'invalid' | 'none'> {
  const token = session.get('accessToken');
  if (!token) return 'none';
  try {
    return await resolveCaller(`${session.get('tokenType') ?? 'bearer'} ${token}`);
  } catch (e) {
    if (isDomainError(e) && e.status === 401) return 'invalid';
    throw e;
  }
}

/**
 * Guards a page or action. Throws redirects (with the session cookie when it changed) and
 * 403 for cross-site form posts; returns who is calling.
 */
export async function guard(request: Request, options: GuardOptions = {}): Promise<Guarded> {
  try {
    assertSameOrigin(request);
  } catch (e) {
    // A thrown Response keeps its status; a thrown error would become a 500 page.
    pageError(e);
  }
  const url = new URL(request.url);
  const path = url.pathname;

  // 1. Page validation.
  for (const v of PAGE_VALIDATIONS) {
    if (path === v.prefix || path.startsWith(v.prefix + '/')) {
      const to = v.check(url);
      if (to) throw redirect(to);
    }
  }
  const custom = options.validate?.(url);
  if (custom) throw redirect(custom);

  // 2. Authentication.
  const session = await getSession(request);
  const found = await callerFromSession(session);
  const noAuth = isNoAuthPath(path);
  if (found === 'invalid') {
    setSignedOut(session);
    if (noAuth) return { caller: { kind: 'guest' }, user: null, session };
    throw redirect(config().guestMode ? '/data-browser' : '/login', {
      headers: { 'Set-Cookie': await commitSession(session) },
    });
  }
  if (found === 'none') {
    if (noAuth) return { caller: { kind: 'guest' }, user: null, session };
    if (!config().guestMode) throw redirect(`/login`);
    // "If no token exists, a guest token is obtained automatically through guest sign-in."
    // Set it with a redirect to the same page so only one response ever writes the cookie.
    setGuestToken(session, issueGuestToken());
    const back = request.method === 'GET' || request.method === 'HEAD' ? path + url.search : path;
    throw redirect(back, { headers: { 'Set-Cookie': await commitSession(session) } });
  }
  const caller = found;
  const user = caller.kind === 'user' ? caller.user : null;

  // 3. Redirects from the route rules: the same decision the JSON API answers with 401/403.
  const decision = decide(
    path,
    { isGuest: user === null, hasAccess: user?.has_access ?? false, isSuperuser: user?.is_superuser ?? false },
    { guestMode: config().guestMode },
  );
  if ('refuse' in decision) {
    const to = decision.refuse.redirect;
    if (to !== '/data-browser') throw redirect(to);
    // The landing page says which page was refused and why, and its sign-in links come back here.
    const wanted = request.method === 'GET' || request.method === 'HEAD' ? path + url.search : path;
    session.flash('denied', { path: wanted, guest: user === null });
    throw redirect(to, { headers: { 'Set-Cookie': await commitSession(session) } });
  }
  return { caller, user, session };
}

/** For actions that need a real account (not a guest): sends guests to /login. */
export async function requireUser(request: Request, options: GuardOptions = {}): Promise<Guarded & { user: AccountUser }> {
  const g = await guard(request, options);
  if (!g.user) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return { ...g, user: g.user };
}
