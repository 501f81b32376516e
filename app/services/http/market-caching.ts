// Caching headers of the market data answers (prices, metrics, company and market pages' JSON and
// CSV). Such an answer is a function of the market store's content and of the metrics engine
// that derived it, and of nothing about the caller, so its entity tag is the store's snapshot id
// and engine version: the same on every app process serving the same store, which lets a reverse
// proxy or a browser keep it until an import publishes new data.
//
// - Anonymous requests (no Authorization, no Cookie): `public`, so a shared cache may serve
//   repeats for MARKET_MAX_AGE_SECONDS and revalidate them with If-None-Match afterwards.
// - Requests carrying credentials: `private, no-cache` — a browser keeps the answer and asks
//   again each time, getting a bodiless 304 while the data has not changed.
// - An If-None-Match naming the current tag is answered 304 before any work is done.
// - Errors (4xx, 5xx) keep the `no-store` they were given.

/** How long a shared cache may serve an anonymous answer without asking (data changes at imports). */
export const MARKET_MAX_AGE_SECONDS = 300;

const VARY = 'Authorization, Cookie';

/** The entity tag for a version of the market data (weak: the bytes may differ between app versions). */
export function marketEntityTag(version: string): string {
  return `W/"${version.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
}

/** True when the request's If-None-Match names `etag` (weak comparison, as RFC 9110 asks for GET). */
export function ifNoneMatchHits(request: Request, etag: string): boolean {
  const header = request.headers.get('If-None-Match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const want = opaque(etag);
  return header.split(',').some((t) => opaque(t) === want);
}

function isAnonymous(request: Request): boolean {
  return !request.headers.has('Authorization') && !request.headers.has('Cookie');
}

/** The caching headers of a market answer with tag `etag` to `request`. */
export function marketCacheHeaders(request: Request, etag: string): Record<string, string> {
  return {
    ETag: etag,
    'Cache-Control': isAnonymous(request) ? `public, max-age=${MARKET_MAX_AGE_SECONDS}` : 'private, no-cache',
    Vary: VARY,
  };
}

/**
 * Runs a market data answer with caching headers: 304 when the caller already has the current
 * version (only for GET and HEAD), else `answer()` with the headers added to a 200. `version`
 * gives the store's current version, or null when there is none (no headers then).
 */
export async function withMarketCaching(
  request: Request,
  version: () => Promise<string | null>,
  answer: () => Promise<Response>,
): Promise<Response> {
  const method = request.method.toUpperCase();
  const current = method === 'GET' || method === 'HEAD' ? await version().catch(() => null) : null;
  if (current === null) return answer();
  const etag = marketEntityTag(current);
  const headers = marketCacheHeaders(request, etag);
  if (ifNoneMatchHits(request, etag)) return new Response(null, { status: 304, headers });
  const response = await answer();
  if (response.status !== 200) return response;
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}
