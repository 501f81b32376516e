import type { ZodTypeAny, z } from 'zod';
import { config } from '../config.server';
import { DomainError } from '../http/errors';
import { jsonResponse, parseJsonBody } from '../http/api.server';
import { clientAddress } from './rate-limit.server';
import { decideRoute, NEEDS, type RouteId, type Who } from './access-rules';
import { getSession } from './session.server';
import { resolveCaller } from './tokens.server';
import type { Caller, IssuedToken, RequestContext } from './types';

// Small helpers that keep the auth API routes thin: body parsing with a media-type check, the
// request context, the caller, and the token answer.

export const GUEST_DETAIL = NEEDS.account.detail;

const ACCEPTED_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

/** Parses the JSON (or urlencoded) body with a shared schema; other media types are 415. */
export function readApiBody<T extends ZodTypeAny>(request: Request, schema: T): Promise<z.infer<T>> {
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  if (type && !ACCEPTED_TYPES.includes(type) && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new DomainError(415, 'Send the request body as JSON (Content-Type: application/json).');
  }
  return parseJsonBody(request, schema);
}

export function requestContext(request: Request): RequestContext {
  return { clientAddress: clientAddress(request) };
}

/**
 * The token of an API request: the Authorization header, or for a plain GET/HEAD (a page's
 * "JSON"/"CSV" link) the session cookie's token. Writes need the header, so a cross-site form
 * cannot act with the cookie. 'anonymous' when neither is there.
 */
async function apiCaller(request: Request): Promise<Caller | 'anonymous'> {
  const header = request.headers.get('Authorization');
  if (header?.trim()) return resolveCaller(header);
  if (request.method === 'GET' || request.method === 'HEAD') {
    const session = await getSession(request);
    const token = session.get('accessToken');
    if (token) return resolveCaller(`${session.get('tokenType') ?? 'bearer'} ${token}`);
  }
  return 'anonymous';
}

/**
 * The access rules of `route` (access-rules.ts, the table the pages use) for this request:
 * throws 401/403 with what is needed, else returns the caller (anonymous callers are guests).
 */
export async function authorize(request: Request, route: RouteId): Promise<Caller> {
  const caller = await apiCaller(request);
  const who: Who =
    caller === 'anonymous'
      ? 'anonymous'
      : caller.kind === 'guest'
        ? { isGuest: true, hasAccess: false, isSuperuser: false }
        : { isGuest: false, hasAccess: caller.user.has_access, isSuperuser: caller.user.is_superuser };
  const decision = decideRoute(route, who, { guestMode: config().guestMode, method: request.method });
  if ('refuse' in decision) throw new DomainError(decision.refuse.status, decision.refuse.detail);
  return caller === 'anonymous' ? { kind: 'guest' } : caller;
}

/** `authorize` for routes that act on the caller's own data: guests are refused. */
export async function requireAccount(request: Request, route: RouteId): Promise<Extract<Caller, { kind: 'user' }>> {
  const caller = await authorize(request, route);
  if (caller.kind !== 'user') throw new DomainError(NEEDS.account.status, NEEDS.account.detail);
  return caller;
}

export function tokenResponse(token: IssuedToken, status = 200): Response {
  return jsonResponse({ access_token: token.access_token, token_type: token.token_type }, { status });
}
