import { commitSession, getSession, setSignedIn } from '~/services/auth/session.server';
import { hashToken, issueGuestToken, issueUserToken } from '~/services/auth/tokens.server';
import { resetConfigForTests } from '~/services/config.server';
import type { AccountUser, IssuedToken } from '~/services/auth/types';
import { createUser } from '~/services/auth/users.server';

// Calls the loader or action of an HTML route with a real Request and a real session cookie,
// as the browser would (same-origin form posts), and reports what came back: a thrown or
// returned Response (redirects, errors) or the data of a page.

type RouteFn = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown;

export type PageOutcome = {
  status: number;
  location: string | null;
  setCookie: string | null;
  /** Loader/action data (`data()` answers are unwrapped). */
  value: unknown;
  text: string;
};

export type SignedIn = { cookie: string; tokenHash: string };

/** A session cookie signed in with a fresh token of `user`, as after the one-time code. */
export async function sessionCookieFor(user: AccountUser): Promise<SignedIn> {
  const token = await issueUserToken(user.id);
  const session = await getSession(new Request('http://localhost/'));
  setSignedIn(session, token, user);
  return { cookie: (await commitSession(session)).split(';')[0], tokenHash: hashToken(token.access_token) };
}

/** A new account (with access unless told otherwise) signed in: its id and session cookie. */
export async function newSignedInAccount(
  email: string,
  opts: { full_name?: string; access?: boolean; superuser?: boolean } = {},
): Promise<{ id: string; cookie: string }> {
  const user = await createUser({
    email,
    password: 'correct horse battery',
    full_name: opts.full_name ?? email.split('@')[0],
    access: opts.access ?? true,
    superuser: opts.superuser,
  });
  return { id: user.id, cookie: (await sessionCookieFor(user)).cookie };
}

function unwrap(value: unknown): { status: number; value: unknown; headers?: Headers } {
  // Remix's data() answers are DataWithResponseInit objects: {type: 'DataWithResponseInit', data, init}.
  const v = value as { type?: string; data?: unknown; init?: { status?: number; headers?: HeadersInit } | null };
  if (v && typeof v === 'object' && v.type === 'DataWithResponseInit') {
    return { status: v.init?.status ?? 200, value: v.data, headers: new Headers(v.init?.headers) };
  }
  return { status: 200, value };
}

export async function callPage(
  fn: unknown,
  path: string,
  init: {
    cookie?: string;
    form?: Record<string, string>;
    body?: BodyInit;
    headers?: Record<string, string>;
    params?: Record<string, string>;
    method?: string;
  } = {},
): Promise<PageOutcome> {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('Cookie', init.cookie);
  let body: BodyInit | undefined = init.body;
  if (init.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(init.form).toString();
  }
  const method = init.method ?? (body !== undefined ? 'POST' : 'GET');
  if (method !== 'GET' && !headers.has('Origin')) headers.set('Origin', 'http://localhost');
  const request = new Request(`http://localhost${path}`, { method, headers, body, duplex: 'half' } as RequestInit);
  const respond = async (r: Response): Promise<PageOutcome> => ({
    status: r.status,
    location: r.headers.get('Location'),
    setCookie: r.headers.get('Set-Cookie'),
    value: null,
    text: await r.text(),
  });
  try {
    const value = await (fn as RouteFn)({ request, params: init.params ?? {}, context: {} });
    if (value instanceof Response) return await respond(value);
    const u = unwrap(value);
    return { status: u.status, location: null, setCookie: u.headers?.get('Set-Cookie') ?? null, value: u.value, text: '' };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return respond(thrown);
  }
}

/** The cookie pair of a Set-Cookie header (to send it back on the next request). */
export function cookiePair(setCookie: string | null): string {
  return (setCookie ?? '').split(';')[0];
}

/** A guest token signed as a guest-mode server would (to show it stops working with guest mode off). */
export function guestTokenIssuedInGuestMode(): IssuedToken {
  const previous = process.env.GUEST_MODE;
  process.env.GUEST_MODE = '1';
  resetConfigForTests();
  try {
    return issueGuestToken();
  } finally {
    if (previous === undefined) delete process.env.GUEST_MODE;
    else process.env.GUEST_MODE = previous;
    resetConfigForTests();
  }
}
