import { promisify } from 'node:util';
import zlib from 'node:zlib';
import Negotiator from 'negotiator';

// Compressing the JSON API's answers in one piece: scripts/app-server.mjs does it for every answer
// of a known length as it sends it, and a request that prepares its answer ahead of sending it (a
// backtest POST waiting for its run) does it while it waits, off the path of the answer. Pages and
// streamed answers go through the compression middleware, with the same settings.

// The fastest setting of each (gzip level 1 is nginx's default): on a backtest's 380 KB JSON
// answer gzip took 2–3 ms for 86 KB where level 6 took 5–6.6 ms, brotli 1 ms for 72 KB where its
// middleware default (quality 4) took 3.2 ms for 67 KB.
export const GZIP_OPTIONS: zlib.ZlibOptions = { level: 1 };
export const BROTLI_OPTIONS: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
/** JSON answers of a known length in this range are compressed in one piece. */
const WHOLE_MIN_BYTES = 1024;
const WHOLE_MAX_BYTES = 2 * 2 ** 20;
/** Up to this size on the calling thread: a 100 KB answer takes ~0.7 ms, about what the round trip to libuv's thread pool adds. */
const COMPRESS_HERE_BYTES = 256 * 1024;

/** What `compressedAnswer` needs of the request (a Fetch API Request, or the headers of Node's). */
export type AnswerRequest = { method: string; acceptEncoding: string | null | undefined };

/**
 * `response` compressed whole for the client, when it is a JSON answer of a known length that the
 * client accepts compressed (brotli, else gzip, as the middleware chooses: the client's preference,
 * brotli on a tie); null when it goes as it is (already encoded, too small or large, not JSON, a
 * HEAD, `no-transform`, or a client that takes neither).
 */
export async function compressedAnswer(request: AnswerRequest, response: Response): Promise<Response | null> {
  const length = Number(response.headers.get('Content-Length') ?? Number.NaN);
  const whole =
    response.body !== null &&
    request.method !== 'HEAD' &&
    length >= WHOLE_MIN_BYTES &&
    length <= WHOLE_MAX_BYTES &&
    /^application\/json\b/.test(response.headers.get('Content-Type') ?? '') &&
    !response.headers.has('Content-Encoding') &&
    !/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(response.headers.get('Cache-Control') ?? '');
  if (!whole) return null;
  const encoding = new Negotiator({ headers: { 'accept-encoding': request.acceptEncoding ?? undefined } }).encodings(
    ['br', 'gzip', 'identity'],
    ['br', 'gzip'],
  )[0];
  if (encoding !== 'br' && encoding !== 'gzip') return null;
  const body = Buffer.from(await response.arrayBuffer());
  const here = body.length <= COMPRESS_HERE_BYTES;
  const packed =
    encoding === 'br'
      ? here
        ? zlib.brotliCompressSync(body, BROTLI_OPTIONS)
        : await brotli(body, BROTLI_OPTIONS)
      : here
        ? zlib.gzipSync(body, GZIP_OPTIONS)
        : await gzip(body, GZIP_OPTIONS);
  const headers = new Headers(response.headers);
  headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(packed.length));
  if (!/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(headers.get('Vary') ?? '')) headers.append('Vary', 'Accept-Encoding');
  return new Response(packed, { status: response.status, statusText: response.statusText, headers });
}

/** The same for an answer the app prepares itself (from the Fetch API request it answers). */
export async function compressedForRequest(request: Request, response: Response): Promise<Response> {
  return (await compressedAnswer({ method: request.method, acceptEncoding: request.headers.get('Accept-Encoding') }, response)) ?? response;
}
