import { createCookie } from '@remix-run/node';
import { config } from '../config.server';
import { safeRedirectPath } from './redirects';

// What a social sign-in remembers between its start and the provider's callback, per state:
// the OIDC nonce and where to go afterwards. remix-auth-oauth2 keeps state + PKCE verifier in its
// own cookie; ours is signed with the session secrets, short-lived and scoped to /oauth/<id>.

export const FLOW_TTL_SECONDS = 10 * 60;
const MAX_PARALLEL_FLOWS = 5;

export type FlowEntry = {
  /** OAuth2 state this entry belongs to. */
  s: string;
  /** OIDC nonce sent with the authorization request. */
  n?: string;
  /** Same-origin path to return to. */
  r?: string;
  /** Started at (ms since epoch). */
  t: number;
};

export const oauthPath = (providerId: string) => `/oauth/${providerId}`;
/** Cookie name prefix of remix-auth-oauth2's state store (it appends ":<uuid>" per flow). */
export const stateCookieName = (providerId: string) => `__oauth_state_${providerId}`;
const flowCookieName = (providerId: string) => `__oauth_flow_${providerId}`;

function flowCookie(providerId: string) {
  return createCookie(flowCookieName(providerId), {
    path: oauthPath(providerId),
    httpOnly: true,
    sameSite: 'lax',
    secure: config().isProduction,
    maxAge: FLOW_TTL_SECONDS,
    secrets: config().sessionSecrets,
  });
}

function isEntry(value: unknown): value is FlowEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.s === 'string' &&
    typeof e.t === 'number' &&
    (e.n === undefined || typeof e.n === 'string') &&
    (e.r === undefined || typeof e.r === 'string')
  );
}

async function readEntries(request: Request, providerId: string): Promise<FlowEntry[]> {
  // A cookie with a bad signature parses to null: treated as no flow at all.
  const value: unknown = await flowCookie(providerId).parse(request.headers.get('Cookie'));
  if (!Array.isArray(value)) return [];
  const oldest = Date.now() - FLOW_TTL_SECONDS * 1000;
  return value.filter(isEntry).filter((e) => e.t >= oldest);
}

/** Set-Cookie for a new flow, keeping a few recent ones so sign-ins in several tabs all work. */
export async function saveFlowEntry(request: Request, providerId: string, entry: FlowEntry): Promise<string> {
  const kept = (await readEntries(request, providerId)).filter((e) => e.s !== entry.s);
  return flowCookie(providerId).serialize([entry, ...kept].slice(0, MAX_PARALLEL_FLOWS));
}

export async function findFlowEntry(request: Request, providerId: string, state: string | null): Promise<FlowEntry | undefined> {
  if (!state) return undefined;
  return (await readEntries(request, providerId)).find((e) => e.s === state);
}

/** Where to go after the callback: the start's `redirectTo`, checked again, or null. */
export async function flowRedirectTo(request: Request, providerId: string): Promise<string | null> {
  const state = new URL(request.url).searchParams.get('state');
  const entry = await findFlowEntry(request, providerId, state);
  const path = safeRedirectPath(entry?.r, '');
  return path === '' ? null : path;
}

/**
 * Set-Cookie headers that end every flow of this provider (after success or failure): our flow
 * cookie and each of remix-auth-oauth2's state cookies, which it never clears itself.
 */
export function clearFlowCookies(request: Request, providerId: string): string[] {
  const path = oauthPath(providerId);
  const secure = config().isProduction ? '; Secure' : '';
  const expired = `Path=${path}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${secure}`;
  const names = cookieNames(request.headers.get('Cookie'));
  const prefix = stateCookieName(providerId);
  const out = [`${flowCookieName(providerId)}=; ${expired}`];
  for (const name of names) {
    if (name.startsWith(prefix)) out.push(`${name}=; ${expired}`);
  }
  return out;
}

function cookieNames(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(';')
    .map((pair) => pair.split('=')[0]?.trim() ?? '')
    .filter((name) => name !== '' && /^[\w.:-]+$/.test(name));
}
