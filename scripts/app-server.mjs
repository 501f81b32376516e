// The HTTP server of `npm start`: Express with Remix's request handler (@remix-run/express, the
/* global clearTimeout */
// pattern Remix documents for a server of one's own), inside the start script's process so that
// there is one process to stop. Before a request reaches the app it is checked for what the app
// and Remix would otherwise answer with a 500:
// - a form post from another site (an Origin that is not ours, `Origin: null`) → 403;
// - a page form sent as JSON, text or without a media type → 415, a multipart body without its
//   boundary → 400;
// - a Host header that is not a host → 400; an absolute-form or malformed request target → 400;
// - a path in another letter case than its route, or with percent-encoded letters and digits →
//   a redirect to the path as the app writes it (a path no route knows stays a 404);
// - X-Forwarded-* headers are dropped unless TRUST_PROXY=1 says a proxy sets them;
// - a client on this machine that no proxy forwarded is answered uncompressed (`isLocalClient`).
// Every response, redirects and downloads included, carries the app's security headers, and a
// request body the app did not read (a 413, a redirect) is read to its end before the connection
// is reused, so the client receives the answer instead of a reset connection.
import { matchRoutes } from '@remix-run/router';
// The adapter's own Request and response conversions (its package entry exports only its handler).
import remixExpress from '@remix-run/express/dist/server.js';
import { createRequestHandler } from '@remix-run/node';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import compression from 'compression';
import express from 'express';
import { LRUCache } from 'lru-cache';
import morgan from 'morgan';

const { createRemixRequest, sendRemixResponse } = remixExpress;

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);
const FORWARDED_HEADERS = [
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-for',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'forwarded',
];

/** Headers a proxy adds (at least one of them, as nginx, Caddy, HAProxy and load balancers are set up to). */
const PROXY_HEADERS = [...FORWARDED_HEADERS, 'via'];

/**
 * Whether the request comes from a client on this machine (a loopback address) and not through a
 * proxy (none of PROXY_HEADERS, read before untrusted ones are dropped). Such a client is answered
 * uncompressed, whatever it accepts: with no network between, compressing costs both ends more
 * than it saves. A finished S&P 500 backtest's 95 KB answer arrived in 19.9 ms uncompressed
 * against 23.1 ms gzipped (Node's fetch, which asks for gzip; 21.3 ms with brotli). A proxy on
 * this machine that sets none of these headers gets what it forwards uncompressed: let it compress.
 */
export function isLocalClient(req) {
  const address = req.socket.remoteAddress ?? '';
  const loopback = address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
  return loopback && !PROXY_HEADERS.some((name) => req.headers[name] !== undefined);
}

/** After the answer, at most this much of an unread request body is read and dropped; beyond it the connection is cut. */
export const LINGER_MAX_BYTES = 1024 * 1024 * 1024;
/** …and for at most this long. */
export const LINGER_MAX_MS = 30_000;

export const FOREIGN_ORIGIN_DETAIL = 'This form was sent from another site and was refused.';
export const MEDIA_TYPE_DETAIL = 'Send the form as multipart/form-data or application/x-www-form-urlencoded.';
export const BOUNDARY_DETAIL = 'The form could not be read: its multipart body has no boundary. Send it again.';
export const BAD_HOST_DETAIL = 'The request names no valid host.';
export const BAD_TARGET_DETAIL = 'The request path is not valid.';

/** Headers for responses the app's document renderer did not make (redirects, downloads, JSON, files). */
const FALLBACK_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A refusal as JSON for API clients and as a small page for browsers (a form posted without JavaScript). */
function refuse(req, res, status, detail) {
  res.status(status);
  res.setHeader('Cache-Control', 'no-store');
  const wantsJson = req.path.startsWith('/api/') || (req.get('accept') ?? '').includes('application/json');
  if (wantsJson) {
    res.json({ detail });
    return;
  }
  const title = status === 403 ? 'Refused' : 'The request could not be read';
  res
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Quarry</title></head>` +
        `<body><main><h1>${title}</h1><p>${escapeHtml(detail)}</p><p><a href="/">Back to Quarry</a></p></main></body></html>`,
    );
}

/** The route tree of a Remix server build, as @remix-run/router matches it. */
function routeTree(routes, caseSensitive) {
  const byParent = new Map();
  for (const route of Object.values(routes)) {
    const list = byParent.get(route.parentId) ?? [];
    list.push(route);
    byParent.set(route.parentId, list);
  }
  const build = (parentId) =>
    (byParent.get(parentId) ?? []).map((r) => ({
      id: r.id,
      path: r.path,
      index: r.index,
      caseSensitive,
      children: r.index ? undefined : build(r.id),
    }));
  return build(undefined);
}

/** Percent-encoded letters, digits and `-._~` mean the same decoded (RFC 3986 normalisation). */
function decodeUnreserved(pathname) {
  return pathname.replace(/%([0-9A-Fa-f]{2})/g, (whole, hex) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : whole.toUpperCase();
  });
}

/**
 * The path as the app writes it, when `pathname` names a route only in another letter case
 * (`/ADMIN` → `/admin`, `/Company/42` → `/company/42`); null when it is already canonical or
 * names no route. Only the route's own words change case: parameters (tickers, tokens) are kept.
 */
export function canonicalRoutePath(routes, pathname) {
  const exact = matchRoutes(routes.sensitive, pathname);
  const loose = matchRoutes(routes.insensitive, pathname);
  if (!loose) return null;
  const leaf = loose[loose.length - 1];
  if (exact && exact[exact.length - 1].route.id === leaf.route.id) return null;
  const pattern = loose
    .map((m) => m.route.path)
    .filter(Boolean)
    .join('/')
    .split('/')
    .filter(Boolean);
  if (pattern.some((s) => s === '*' || s.endsWith('?'))) return null;
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length !== pattern.length) return null;
  const canonical = segments.map((segment, i) => (pattern[i].startsWith(':') ? segment : pattern[i]));
  return `/${canonical.join('/')}${pathname.endsWith('/') && pathname !== '/' ? '/' : ''}`;
}

function isValidHost(host) {
  if (!host || /[\s/\\?#@]/.test(host)) return false;
  try {
    return new URL(`http://${host}`).host.length > 0;
  } catch {
    return false;
  }
}

/** The host an Origin header must name: the proxy's forwarded host when trusted, else Host. */
function expectedHost(req, trustProxy) {
  const forwarded = trustProxy ? req.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  return forwarded || req.get('host');
}

/** Checks every request before the app sees it; answers the ones the app would fail on. */
function requestChecks({ trustProxy, routes }) {
  // Matching a path against the whole route tree is a large part of a page's CPU time, and the
  // answer depends on the path alone: kept for the paths asked most (a bounded LRU; '' for none).
  const canonicalPaths = new LRUCache({ max: 5_000 });
  const canonicalPath = (pathname) => {
    if (pathname.length > 512) return canonicalRoutePath(routes, pathname);
    let known = canonicalPaths.get(pathname);
    if (known === undefined) {
      known = canonicalRoutePath(routes, pathname) ?? '';
      canonicalPaths.set(pathname, known);
    }
    return known || null;
  };
  return (req, res, next) => {
    // The compression middleware and the app's own compression (`compressedAnswer`) read this header.
    if (isLocalClient(req)) req.headers['accept-encoding'] = 'identity';
    if (!trustProxy) for (const name of FORWARDED_HEADERS) delete req.headers[name];
    // Host names are case-insensitive; Remix compares them with the Origin's lower-cased host.
    if (req.headers.host) req.headers.host = req.headers.host.toLowerCase();
    if (trustProxy && req.headers['x-forwarded-host']) req.headers['x-forwarded-host'] = req.headers['x-forwarded-host'].toLowerCase();
    const host = expectedHost(req, trustProxy);
    if (!isValidHost(host)) return refuse(req, res, 400, BAD_HOST_DETAIL);
    if (!req.originalUrl.startsWith('/') || req.originalUrl.startsWith('//')) return refuse(req, res, 400, BAD_TARGET_DETAIL);

    const queryAt = req.originalUrl.indexOf('?');
    const rawPath = queryAt === -1 ? req.originalUrl : req.originalUrl.slice(0, queryAt);
    const query = queryAt === -1 ? '' : req.originalUrl.slice(queryAt);
    let canonical = decodeUnreserved(rawPath);
    try {
      const routePath = canonicalPath(decodeURI(canonical));
      if (routePath) canonical = encodeURI(routePath);
    } catch {
      return refuse(req, res, 400, BAD_TARGET_DETAIL);
    }
    if (canonical !== rawPath) {
      // 308 keeps a form post a post; a page read gets the permanent redirect browsers cache.
      res.redirect(MUTATING.has(req.method) ? 308 : 301, canonical + query);
      return;
    }

    if (!MUTATING.has(req.method)) return next();
    const site = req.get('sec-fetch-site');
    if (site && site !== 'same-origin' && site !== 'none') return refuse(req, res, 403, FOREIGN_ORIGIN_DETAIL);
    const origin = req.get('origin');
    if (origin !== undefined) {
      let originHost = '';
      try {
        originHost = new URL(origin).host;
      } catch {
        // `null` (a sandboxed frame, a file://, a redirect across sites) and garbage alike.
      }
      if (!originHost || originHost !== host) return refuse(req, res, 403, FOREIGN_ORIGIN_DETAIL);
    }
    // The JSON API reads JSON bodies and answers for its own; pages read forms only.
    if (req.path.startsWith('/api/')) return next();
    const contentType = req.get('content-type') ?? '';
    const mediaType = contentType.split(';')[0].trim().toLowerCase();
    if (!FORM_TYPES.has(mediaType)) return refuse(req, res, 415, MEDIA_TYPE_DETAIL);
    if (mediaType === 'multipart/form-data' && !/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(contentType)) {
      return refuse(req, res, 400, BOUNDARY_DETAIL);
    }
    next();
  };
}

/**
 * Sets the security headers on every response just before its head is written, keeping any the
 * app set itself (documents carry their own CSP with a nonce). A response written while the
 * request body is still arriving leaves that body to be read to its end afterwards (`linger`).
 */
function securityHeadersOnEveryResponse(baseHeaders) {
  return (req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function patchedWriteHead(...args) {
      for (const [name, value] of Object.entries(baseHeaders())) if (!res.hasHeader(name)) res.setHeader(name, value);
      if (!res.hasHeader('content-security-policy')) res.setHeader('Content-Security-Policy', FALLBACK_CSP);
      return writeHead.apply(this, args);
    };
    res.once('finish', () => linger(req));
    next();
  };
}

/**
 * Reads and drops what is left of a request body the answer did not need, so the client gets
 * to read the answer (a 413, a redirect) instead of a connection reset while it still sends;
 * the connection is cut once LINGER_MAX_BYTES or LINGER_MAX_MS is passed.
 */
function linger(req) {
  if (req.complete || req.destroyed) return;
  let read = 0;
  const cut = () => {
    clearTimeout(timer);
    req.socket?.destroy();
  };
  const timer = setTimeout(cut, LINGER_MAX_MS);
  timer.unref();
  const count = (chunk) => {
    read += chunk.length;
    if (read > LINGER_MAX_BYTES) cut();
  };
  req.once('end', () => clearTimeout(timer));
  req.once('error', () => clearTimeout(timer));
  // The app's reader (Remix's stream of the body) would queue what comes now: it is done.
  for (const listener of req.listeners('data')) req.off('data', listener);
  req.on('data', count);
  req.resume();
}

/** `serve` for the paths whose first segment names an entry of `dir` (as it was at start); the others pass by. */
function onlyUnder(dir, serve) {
  const names = new Set(existsSync(dir) ? readdirSync(dir) : []);
  return (req, res, next) => {
    let first = req.path.split('/')[1] ?? '';
    try {
      first = decodeURIComponent(first);
    } catch {
      return next();
    }
    return names.has(first) ? serve(req, res, next) : next();
  };
}

/**
 * Sends a Remix response. A JSON answer of a known length (the API's: http/api.server.ts) is
 * compressed in one piece (the build's `compressedAnswer`: http/answer-compression.server.ts),
 * which the compression middleware then leaves alone: streamed through the middleware, a
 * backtest's 380 KB result took 7–10 ms more to arrive compressed than plain, where compressing it
 * whole takes 1–3 ms. An answer the app compressed itself goes as it is; larger answers (written
 * in turns, so the event loop is not held) and pages (streamed) go through the middleware.
 */
async function sendResponse(req, res, response, compressedAnswer) {
  const packed = compressedAnswer
    ? await compressedAnswer({ method: req.method, acceptEncoding: req.headers['accept-encoding'] }, response)
    : null;
  return sendRemixResponse(res, packed ?? response);
}

/**
 * The Express app serving a Remix server build. `baseSecurityHeaders` gives the headers every
 * response carries (the build's entry exports them); `mode` is Remix's server mode.
 */
export function createAppServer({ build, mode = 'production', trustProxy = false, publicDir = 'public', accessLog = true }) {
  const routes = { sensitive: routeTree(build.routes, true), insensitive: routeTree(build.routes, false) };
  // Remix and React Router match every page's path 5–6 times, each time from scratch: the build
  // keeps the answers per path on the router module they share (the one Node resolves from here).
  build.entry.module.memoizeRouteMatching?.(createRequire(import.meta.url)('@remix-run/router'));
  const baseHeaders = build.entry.module.baseSecurityHeaders ?? (() => ({}));
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy);
  app.use(securityHeadersOnEveryResponse(baseHeaders));
  app.use(requestChecks({ trustProxy, routes }));
  // Pages and streamed answers, with the settings whole answers are compressed with.
  const { GZIP_OPTIONS = {}, BROTLI_OPTIONS = {}, compressedAnswer } = build.entry.module;
  app.use(compression({ ...GZIP_OPTIONS, brotli: BROTLI_OPTIONS }));
  // The build's client files and public/ are looked in only for paths under one of their entries
  // (read at start: restart to add one), so a page request costs no file-system lookup.
  if (build.assetsBuildDirectory) {
    app.use(
      build.publicPath,
      onlyUnder(build.assetsBuildDirectory, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: '1y' })),
    );
  }
  app.use(onlyUnder(publicDir, express.static(publicDir, { maxAge: '1h' })));
  if (accessLog) app.use(morgan('tiny'));
  const render = createRequestHandler(build, mode);
  // A page read runs in its own memo: its loaders resolve the signed-in user once between them.
  const inScope = build.entry.module.runInRequestScope ?? ((fn) => fn());
  // Company page reads may be answered from the pages kept for their reader; a write ends the
  // kept pages it may have changed before its answer leaves (PAGE_CACHE_MB=0: no cache).
  const pages = build.entry.module.pageCache?.() ?? null;
  app.all('*', async (req, res, next) => {
    try {
      const request = createRemixRequest(req, res);
      let response;
      if (req.method === 'GET' || req.method === 'HEAD') {
        response = await inScope(() => (pages ? pages.serve(request, (r) => render(r)) : render(request)));
      } else {
        response = await render(request);
        if (pages) await pages.afterChange(request, response);
      }
      await sendResponse(req, res, response, compressedAnswer);
    } catch (error) {
      next(error);
    }
  });
  // Whatever still escapes (a handler bug) is logged here and answered without its details.
  app.use((error, req, res, next) => {
    console.error('[server] unhandled error', error);
    if (res.headersSent) {
      next(error);
      return;
    }
    res.status(500).type('text').send('Something went wrong on our side. Try again later.');
  });
  return app;
}
