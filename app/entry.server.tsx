import { PassThrough } from 'node:stream';
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream, renderToStaticMarkup } from 'react-dom/server';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { startServer } from './services/startup.server';
import { applySecurityHeaders, createNonce } from './services/http/security-headers.server';
import { NonceProvider } from './ui/nonce';
import { registerServerSvgRenderer } from './ui/charts/server-svg';

const ABORT_DELAY = 5_000;

// For the HTTP server, which puts them on the responses no page renders.
export { baseSecurityHeaders } from './services/http/security-headers.server';
// …and runs each page read in its own memo (resolving the caller once for all its loaders).
export { runInRequestScope } from './services/http/request-scope.server';
// …and keeps route matches per path (services/http/route-match-memo.server.ts).
export { memoizeRouteMatching } from './services/http/route-match-memo.server';
// …and answers repeated company page reads from the pages it kept (services/page-cache).
export { pageCache } from './services/page-cache/page-cache.server';
// …and compresses whole JSON answers, and pages with the same settings (services/http/answer-compression.server.ts).
export { BROTLI_OPTIONS, compressedAnswer, GZIP_OPTIONS } from './services/http/answer-compression.server';

// Runs once per process: config validation (a bad GTM_ID stops start-up), production warnings.
// scripts/start.mjs listens once this has settled: the app database is open and migrated.
export const serverReady = startServer();

// The charts' static SVG, kept by what shapes it (ui/charts/server-svg.tsx): at most 16 M characters of markup.
const chartSvgs = new LRUCache<string, string>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (svg) => Math.max(1, svg.length) });
registerServerSvgRenderer((key, element) => {
  const digest = createHash('sha256').update(key).digest('base64url');
  let svg = chartSvgs.get(digest);
  if (svg === undefined) {
    svg = renderToStaticMarkup(element());
    chartSvgs.set(digest, svg);
  }
  return svg;
});

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = createNonce();
  // Bots and no-JS clients get the whole document at once; browsers get it streamed.
  const waitForAll = isbot(request.headers.get('user-agent') ?? '');
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? 'onAllReady' : 'onShellReady']() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          applySecurityHeaders(responseHeaders, nonce);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  applySecurityHeaders(response.headers);
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error('[server] unhandled error', error);
}
