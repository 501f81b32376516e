import { createHash } from 'node:crypto';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import { guard } from '../auth/guard.server';
import { carriesFlash, getSession, type QuarrySession } from '../auth/session.server';
import { resolveCaller } from '../auth/tokens.server';
import type { AccountUser } from '../auth/types';
import { config } from '../config.server';
import { bumpSitePages, bumpUserPages, pageVersions } from '../db/page-versions.server';
import { applySecurityHeaders, createNonce } from '../http/security-headers.server';
import { storeVersion } from '../market/store/open-store.server';

// Rendered pages kept per signed-in reader, so that a repeated read of a company page skips the
// app's rendering. The HTTP server (scripts/app-server.mjs) hands every request to `serve` (page
// reads) or `afterChange` (everything else) through the server build's entry module.
//
// - What is kept: the HTML of a GET of a company page (PAGE_PATHS: market data plus the reader's
//   watchlist box and header) that answered 200 with no Set-Cookie (a flashed message, a renewed
//   session) and no `no-store`, for a signed-in account. Never an API answer, a `.data` or
//   `_data` read, a redirect, a bot's (rendered whole, not streamed) or a guest's page.
// - The key: the account, the session cookie (it carries the header's name, initials and picture
//   and any flashed message), the path and query, the market store's version (every publish is a
//   new file), the day (an as-of default), the site's and the account's page versions.
// - The versions live in the app database (db/page-versions.server.ts), so every web process
//   sees a change at once: every successful write request bumps its signed-in account's version
//   (but the backtest API's, PAGE_NEUTRAL_WRITES), and the site's too when an administrator sent
//   it or it is a webhook delivery; billing and
//   the admin services bump the account they change, whoever calls them (a job, a webhook).
// - Every read, kept or not, is checked first with the same guard the page's loaders call: a
//   signed-out, disabled or expired account, or one the page's rule refuses, is rendered by the
//   app (which redirects it), never answered from here.
// - Nonces: a kept page is stored cut at its nonce; each answer is joined with a fresh one, which
//   its Content-Security-Policy names too.

/** The company pages: /company/{id}/{tab}. /company/{id} itself redirects to its overview. */
const PAGE_PATHS = /^\/company\/[^/]+\/(overview|chart|financial|dividend|valuation)$/;

/** Write requests no account sends whose changes may show on anyone's pages. */
const SITE_WIDE_WRITES = new Set(['/api/v1/billing/webhook']);

/**
 * Write requests whose changes no kept page shows: a backtest asked for, cancelled, shared or
 * deleted through the API (a company page shows market data and its reader's header and
 * watchlists). They end no kept page, and spare their answer the version's commit.
 */
const PAGE_NEUTRAL_WRITES = /^\/api\/v1\/backtests(?:\/|$)/;

/** Set on an answer from the cache (for operators and tests; a rendered page has none). */
export const PAGE_CACHE_HEADER = 'X-Page-Cache';

/** A kept page: its UTF-8 bytes cut where its nonce stood (off the JS heap, shared by every answer). */
type Kept = { status: number; headers: [string, string][]; parts: Buffer[] };

export type PageRender = (request: Request) => Promise<Response>;

export type PageCache = {
  /** A page read (GET, HEAD): answered from the cache when it may be, else rendered by `render` and kept when it qualifies. */
  serve(request: Request, render: PageRender): Promise<Response>;
  /** After a write request was answered (before the answer is sent): ends the pages it may have changed. */
  afterChange(request: Request, response: Response): Promise<void>;
  /** Kept pages and their estimated bytes (tests, diagnostics). */
  stats(): { entries: number; bytes: number };
};

function sessionCookieValue(request: Request): string {
  const cookie = request.headers.get('Cookie') ?? '';
  const match = /(?:^|;\s*)__session=([^;]*)/.exec(cookie);
  return match?.[1] ?? '';
}

/**
 * The signed-in account a page read may be answered for from the cache: the page's own guard
 * lets it through (a refusal, a sign-out, an invalid token throw or give a guest: null), and the
 * session carries no flashed message and the account's current name and picture (else the app
 * renders, showing the message or renewing the cookie).
 */
async function cacheableReader(request: Request): Promise<AccountUser | null> {
  let user: AccountUser | null;
  let session: QuarrySession;
  try {
    ({ user, session } = await guard(request));
  } catch {
    return null;
  }
  if (!user || carriesFlash(session)) return null;
  if (session.get('fullName') !== user.full_name || (session.get('profilePicture') ?? null) !== user.profile_picture) return null;
  return user;
}

function nonceOf(headers: Headers): string | null {
  return /'nonce-([^']+)'/.exec(headers.get('Content-Security-Policy') ?? '')?.[1] ?? null;
}

function keepable(request: Request, response: Response): boolean {
  if (request.method !== 'GET' || response.status !== 200 || response.headers.has('Set-Cookie')) return false;
  if (/no-store/i.test(response.headers.get('Cache-Control') ?? '')) return false;
  return (response.headers.get('Content-Type') ?? '').startsWith('text/html');
}

/** The account that sent a request (its bearer token or its session), or null. */
async function senderOf(request: Request): Promise<AccountUser | null> {
  let authorization = request.headers.get('Authorization');
  if (!authorization) {
    const session = await getSession(request);
    const token = session.get('accessToken');
    if (!token) return null;
    authorization = `${session.get('tokenType') ?? 'bearer'} ${token}`;
  }
  try {
    const caller = await resolveCaller(authorization);
    return caller.kind === 'user' ? caller.user : null;
  } catch {
    return null;
  }
}

export function createPageCache(options: { maxBytes: number }): PageCache {
  const kept = new LRUCache<string, Kept>({
    maxSize: options.maxBytes,
    // UTF-16 text plus the headers and the key.
    sizeCalculation: (k, key) => Math.max(1, k.parts.reduce((n, p) => n + p.length, 0) + 2 * key.length + 1024),
  });

  function answer(k: Kept, method: string): Response {
    const nonce = createNonce();
    const headers = new Headers(k.headers);
    applySecurityHeaders(headers, nonce);
    headers.set(PAGE_CACHE_HEADER, 'hit');
    if (method === 'HEAD') return new Response(null, { status: k.status, headers });
    // The kept bytes as they are, the fresh nonce between them: no copy of the page per answer.
    const between = Buffer.from(nonce);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        k.parts.forEach((part, i) => {
          if (i > 0) controller.enqueue(between);
          controller.enqueue(part);
        });
        controller.close();
      },
    });
    return new Response(body, { status: k.status, headers });
  }

  async function keyOf(request: Request, user: AccountUser): Promise<string> {
    const url = new URL(request.url);
    const session = createHash('sha256').update(sessionCookieValue(request)).digest('base64url');
    const versions = await pageVersions(user.id);
    const day = new Date().toISOString().slice(0, 10);
    return [user.id, session, versions, storeVersion(config().marketDb), day, url.pathname + url.search].join('\n');
  }

  return {
    async serve(request, render) {
      const url = new URL(request.url);
      if (request.method !== 'GET' && request.method !== 'HEAD') return render(request);
      if (!PAGE_PATHS.test(url.pathname) || url.searchParams.has('_data')) return render(request);
      if (isbot(request.headers.get('user-agent') ?? '')) return render(request);
      const user = await cacheableReader(request);
      if (!user) return render(request);
      // Read before rendering: a change committed meanwhile bumps past this key, never under it.
      const key = await keyOf(request, user);
      const hit = kept.get(key);
      if (hit) return answer(hit, request.method);
      const response = await render(request);
      if (!keepable(request, response)) return response;
      const nonce = nonceOf(response.headers);
      const html = await response.text();
      if (nonce && html.includes(nonce)) {
        const headers = [...response.headers].filter(([name]) => name.toLowerCase() !== 'content-security-policy');
        kept.set(key, { status: response.status, headers, parts: html.split(nonce).map((part) => Buffer.from(part)) });
      }
      return new Response(html, { status: response.status, statusText: response.statusText, headers: response.headers });
    },

    async afterChange(request, response) {
      if (request.method === 'GET' || request.method === 'HEAD' || response.status >= 400) return;
      const path = new URL(request.url).pathname;
      if (PAGE_NEUTRAL_WRITES.test(path)) return;
      const sender = await senderOf(request);
      if (sender) await bumpUserPages(sender.id);
      if (sender?.is_superuser || SITE_WIDE_WRITES.has(path)) await bumpSitePages();
    },

    stats() {
      return { entries: kept.size, bytes: kept.calculatedSize };
    },
  };
}

let shared: PageCache | null | undefined;

/** The process's page cache, or null when PAGE_CACHE_MB=0 turns it off. */
export function pageCache(): PageCache | null {
  if (shared === undefined) {
    const maxBytes = config().pageCacheBytes;
    shared = maxBytes > 0 ? createPageCache({ maxBytes }) : null;
  }
  return shared;
}
