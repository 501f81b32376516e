import type { ZodTypeAny, z } from 'zod';
import { DomainError, forbidden } from '../http/errors';
import { jsonResponse, parseJsonBody } from '../http/api.server';
import { clientAddress } from './rate-limit.server';
import { resolveCaller } from './tokens.server';
import type { Caller, IssuedToken, RequestContext } from './types';

// Small helpers that keep the auth API routes thin: body parsing with a media-type check, the
// request context, the caller, and the token answer.

export const GUEST_DETAIL = 'Guest session: sign in or register to get an account.';

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

export function callerOf(request: Request): Promise<Caller> {
  return resolveCaller(request.headers.get('Authorization'));
}

/** The signed-in account behind the request; guests get 403 with the guest detail. */
export async function requireAccount(request: Request): Promise<Extract<Caller, { kind: 'user' }>> {
  const caller = await callerOf(request);
  if (caller.kind !== 'user') throw forbidden(GUEST_DETAIL);
  return caller;
}

export function tokenResponse(token: IssuedToken, status = 200): Response {
  return jsonResponse({ access_token: token.access_token, token_type: token.token_type }, { status });
}
