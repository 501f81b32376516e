import { setImmediate as nextTurn } from 'node:timers/promises';
import { ZodError, type z, type ZodType } from 'zod';
import { DomainError, type FieldErrors } from './errors';
import { jsonTextWithoutFloatNoise } from './numbers';

// Helpers for the JSON API resource routes: parse bodies defensively, answer {"detail"} errors.

export const MAX_JSON_BODY_BYTES = 64 * 1024;

export function jsonResponse(data: unknown, init: ResponseInit = {}): Response {
  // Values computed in binary floating point (sums, split adjustments, ratios) carry noise past
  // the 15th digit; no answer shows it.
  return jsonTextResponse(jsonTextWithoutFloatNoise(data), init);
}

function jsonTextResponse(text: string, init: ResponseInit): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  // Known before the body is sent: the compression middleware leaves an answer under its threshold
  // (1 KB) as it is, where a body of unknown length was always compressed (~1 ms of zlib set-up
  // for a 100-byte answer).
  headers.set('Content-Length', String(Buffer.byteLength(text)));
  headers.set('Cache-Control', 'no-store');
  headers.set('X-Content-Type-Options', 'nosniff');
  return new Response(text, { ...init, headers });
}

/** Characters written between two turns of the event loop by `jsonResponseInTurns`. */
const TURN_CHARS = 256 * 1024;
/** Array elements written by one stringify call (and between two chances of a turn). */
const ARRAY_SLICE = 100;
/**
 * Array elements in its first levels up to which an answer is written in one go: writing in
 * pieces takes about twice as long (measured: 4 against 11 ms for a five-year monthly backtest's
 * 400 KB), which only pays for answers large enough to hold the event loop too long.
 */
const ONE_GO_ELEMENTS = 8_000;

/** How many array elements the first levels of `value` hold (the arrays `jsonResponseInTurns` writes in pieces). */
function elementsNearTop(value: unknown, depth: number): number {
  if (Array.isArray(value)) return value.length;
  if (depth >= 2 || value === null || typeof value !== 'object') return 0;
  let n = 0;
  for (const v of Object.values(value)) n += elementsNearTop(v, depth + 1);
  return n;
}

/**
 * `jsonResponse` for a large answer (megabytes: a backtest's rows), the same text written a piece
 * at a time with the event loop's other work (other requests) in between: long arrays a slice at
 * a time, objects key by key down to two levels, the rest whole. A smaller answer is written in
 * one go.
 */
export async function jsonResponseInTurns(data: unknown, init: ResponseInit = {}): Promise<Response> {
  if (elementsNearTop(data, 0) <= ONE_GO_ELEMENTS) return jsonResponse(data, init);
  let written = 0;
  // Awaits only when a turn is due.
  const piece = (text: string): string | Promise<string> => {
    written += text.length;
    if (written < TURN_CHARS) return text;
    written = 0;
    return nextTurn().then(() => text);
  };
  const write = async (value: unknown, depth: number): Promise<string> => {
    if (Array.isArray(value) && value.length > ARRAY_SLICE) {
      const out: string[] = [];
      for (let i = 0; i < value.length; i += ARRAY_SLICE) {
        const text = piece(jsonTextWithoutFloatNoise(value.slice(i, i + ARRAY_SLICE)).slice(1, -1));
        out.push(typeof text === 'string' ? text : await text);
      }
      return `[${out.join(',')}]`;
    }
    if (
      depth < 2 &&
      value !== null &&
      typeof value === 'object' &&
      Object.getPrototypeOf(value) === Object.prototype &&
      !('toJSON' in value)
    ) {
      const out: string[] = [];
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
        out.push(`${JSON.stringify(k)}:${await write(v, depth + 1)}`);
      }
      return `{${out.join(',')}}`;
    }
    return piece(jsonTextWithoutFloatNoise(value));
  };
  return jsonTextResponse(await write(data, 0), init);
}

/** 204 for a successful DELETE or logout: no body, never cached. */
export function noContent(): Response {
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

export function errorResponse(
  status: number,
  detail: string,
  extra?: { errors?: FieldErrors; headers?: Record<string, string> },
): Response {
  const body: Record<string, unknown> = { detail };
  if (extra?.errors) body.errors = extra.errors;
  return jsonResponse(body, { status, headers: extra?.headers });
}

export function zodFieldErrors(error: ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Reads the raw body with a size limit (413 beyond it); signatures are checked on these bytes. */
export async function readBodyBytes(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<Buffer> {
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > maxBytes) throw new DomainError(413, `Request body is larger than ${maxBytes} bytes.`);
  if (request.body === null) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new DomainError(413, `Request body is larger than ${maxBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Reads a JSON object body with a size limit; bad bodies are 4xx DomainErrors, never 500s. */
export async function readJsonBody(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const type = request.headers.get('Content-Type') ?? '';
  const text = (await readBodyBytes(request, maxBytes)).toString('utf8');
  if (text.trim() === '') return {};
  if (type.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError(400, 'Request body is not valid JSON.');
  }
}

export async function parseJsonBody<T extends ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  const body = await readJsonBody(request);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new DomainError(422, 'Invalid request body.', zodFieldErrors(parsed.error));
  return parsed.data;
}

/** Runs an API handler and maps every failure onto the {"detail"} shape. */
export async function handleApi(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof Response) return e;
    if (e instanceof DomainError) return errorResponse(e.status, e.detail, { errors: e.fields, headers: e.headers });
    if (e instanceof ZodError) return errorResponse(422, 'Invalid request.', { errors: zodFieldErrors(e) });
    console.error('[api] unexpected error', e);
    return errorResponse(500, 'Internal Server Error');
  }
}

export function methodNotAllowed(allowed: string[]): Response {
  return errorResponse(405, `Method not allowed. Use ${allowed.join(', ')}.`, { headers: { Allow: allowed.join(', ') } });
}
