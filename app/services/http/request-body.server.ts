import { DomainError } from './errors';
import { pageErrorResponse } from './page-errors';

// Request bodies with a size cap, for uploads: the body is counted as it streams in and reading
// stops at the cap, so an oversized upload is refused without being held in memory. In forms,
// the file name of each part is kept exactly as sent (for the caller to refuse tricks).

export const FORM_UNREADABLE_DETAIL = 'The form could not be read. Send it again.';
export const FORM_MEDIA_TYPE_DETAIL = 'Send the form as multipart/form-data or application/x-www-form-urlencoded.';

const FORM_TYPES = new Set(['multipart/form-data', 'application/x-www-form-urlencoded']);

type Counted = { stream: ReadableStream<Uint8Array>; exceeded: () => boolean };

/**
 * The body, counted as it streams in; past `maxBytes` it errors. The rest of an oversized body is
 * never read here, nor is the source cancelled (for a Node request that destroys the connection,
 * so the client would see a reset instead of the 413): the HTTP server reads what is left after
 * the answer is sent, within its own limits (scripts/app-server.mjs).
 */
function countedBody(source: ReadableStream<Uint8Array>, maxBytes: number): Counted {
  const reader = source.getReader();
  let size = 0;
  let over = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      size += value.byteLength;
      if (size > maxBytes) {
        over = true;
        controller.error(new Error('form body over the limit'));
        return;
      }
      controller.enqueue(value);
    },
  });
  return { stream, exceeded: () => over };
}

/**
 * Reads a urlencoded or multipart form of at most `maxBytes`. Too large: 413 with `tooLargeDetail`;
 * another media type: 415; a malformed body: 400. Never a 500.
 */
export async function readFormData(request: Request, opts: { maxBytes: number; tooLargeDetail: string }): Promise<FormData> {
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  if (!FORM_TYPES.has(type)) throw new DomainError(415, FORM_MEDIA_TYPE_DETAIL);
  if (!request.body) return new FormData();
  const tooLarge = new DomainError(413, opts.tooLargeDetail);
  const declared = Number(request.headers.get('Content-Length') ?? '');
  if (Number.isFinite(declared) && declared > opts.maxBytes) throw tooLarge;
  const counted = countedBody(request.body, opts.maxBytes);
  const capped = new Request(request.url, {
    method: 'POST',
    headers: request.headers,
    body: counted.stream,
    // Node's fetch needs this for a streamed body; the DOM typings do not know the option yet.
    duplex: 'half',
  } as RequestInit);
  try {
    return await capped.formData();
  } catch {
    if (counted.exceeded()) throw tooLarge;
    throw new DomainError(400, FORM_UNREADABLE_DETAIL);
  }
}

/** Reads a raw body (an upload sent as the body itself) of at most `maxBytes`; too large: 413. */
export async function readBodyBytes(request: Request, opts: { maxBytes: number; tooLargeDetail: string }): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const tooLarge = new DomainError(413, opts.tooLargeDetail);
  const declared = Number(request.headers.get('Content-Length') ?? '');
  if (Number.isFinite(declared) && declared > opts.maxBytes) throw tooLarge;
  const counted = countedBody(request.body, opts.maxBytes);
  try {
    return new Uint8Array(await new Response(counted.stream).arrayBuffer());
  } catch {
    if (counted.exceeded()) throw tooLarge;
    throw new DomainError(400, 'The upload could not be read. Send it again.');
  }
}

/** A page form that is not an upload: far more than any of our forms sends. */
export const PAGE_FORM_MAX_BYTES = 1024 * 1024;
export const PAGE_FORM_TOO_LARGE_DETAIL = 'The form is too large.';

/**
 * The form of a page's action. A body that is not a form (JSON, text, a broken multipart body,
 * too large) is answered with its 4xx and a message on the error page — thrown as a Response so
 * that it never becomes a 500.
 */
export async function readPageForm(
  request: Request,
  opts: { maxBytes: number; tooLargeDetail: string } = { maxBytes: PAGE_FORM_MAX_BYTES, tooLargeDetail: PAGE_FORM_TOO_LARGE_DETAIL },
): Promise<FormData> {
  try {
    return await readFormData(request, opts);
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    throw pageErrorResponse(e);
  }
}
