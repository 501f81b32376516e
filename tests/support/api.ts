// Calls a Remix route module's loader or action with a real Request, as Remix would. Page
// routes work too: a thrown Response (redirect, 404) is the answer, and a loader's plain value or
// `data(value, { status })` becomes the body with its status. Every answer under /api is held
// against the API contract (api-contract.ts): a test fails on an undocumented answer.

import { contractProblem } from './api-contract';

type RouteFn = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown;
export type RouteModule = { loader?: unknown; action?: unknown };

export type ApiAnswer = { status: number; headers: Headers; body: unknown; text: string; location: string | null };

type DataWithInit = { type: 'DataWithResponseInit'; data: unknown; init: ResponseInit | null };

function isDataWithInit(value: unknown): value is DataWithInit {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'DataWithResponseInit';
}

async function settle(run: () => unknown): Promise<Response | { value: unknown; init: ResponseInit | null }> {
  try {
    const value = await run();
    if (value instanceof Response) return value;
    if (isDataWithInit(value)) return { value: value.data, init: value.init };
    return { value, init: null };
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export async function callRoute(
  mod: RouteModule,
  opts: {
    method?: string;
    path?: string;
    json?: unknown;
    body?: BodyInit;
    token?: string;
    authorization?: string;
    headers?: Record<string, string>;
    params?: Record<string, string>;
    /** An HTML form post (urlencoded, same-origin), as a browser sends it. */
    form?: Record<string, string> | URLSearchParams;
    /** The session cookie (`__session=…`). */
    cookie?: string;
  } = {},
): Promise<ApiAnswer> {
  const method = opts.method ?? (opts.json !== undefined || opts.body !== undefined || opts.form !== undefined ? 'POST' : 'GET');
  const headers = new Headers(opts.headers);
  let body: BodyInit | undefined = opts.body;
  if (opts.form !== undefined) {
    body = new URLSearchParams(opts.form).toString();
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    if (!headers.has('Origin')) headers.set('Origin', 'http://localhost');
  }
  if (opts.cookie) headers.set('Cookie', opts.cookie);
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  }
  if (opts.token) headers.set('Authorization', `bearer ${opts.token}`);
  if (opts.authorization) headers.set('Authorization', opts.authorization);
  const request = new Request(`http://localhost${opts.path ?? '/api'}`, { method, headers, body });
  const fn = (method === 'GET' || method === 'HEAD' ? mod.loader : mod.action) as RouteFn | undefined;
  if (!fn) throw new Error(`route module has no ${method === 'GET' ? 'loader' : 'action'}`);
  const settled = await settle(() => fn({ request, params: opts.params ?? {}, context: {} }));
  if (!(settled instanceof Response)) {
    const status = settled.init?.status ?? 200;
    return { status, headers: new Headers(settled.init?.headers), body: settled.value, text: '', location: null };
  }
  const response = settled;
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (request.url.startsWith('http://localhost/api/')) {
    const problem = contractProblem(
      method,
      new URL(request.url).pathname,
      response.status,
      response.headers.get('Content-Type') ?? '',
      parsed,
    );
    if (problem) throw new Error(`API contract: ${problem}`);
  }
  return { status: response.status, headers: response.headers, body: parsed, text, location: response.headers.get('Location') };
}

export type PageOutcome = { status: number; location: string | null; value: unknown; text: string; headers: Headers | null };

/**
 * Calls an HTML route's loader or action as a browser would (session cookie, form posts with an
 * Origin), and unwraps what Remix would send: a Response (redirects, resource routes), data()
 * with its status, a thrown Response (404 pages), or plain loader data.
 */
export async function callPage(
  fn: unknown,
  path: string,
  cookie: string,
  init: { form?: Record<string, string>; params?: Record<string, string> } = {},
): Promise<PageOutcome> {
  const headers = new Headers({ Cookie: cookie });
  let body: string | undefined;
  if (init.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    headers.set('Origin', 'http://localhost');
    body = new URLSearchParams(init.form).toString();
  }
  const request = new Request(`http://localhost${path}`, { method: init.form ? 'POST' : 'GET', headers, body });
  try {
    const value = await (fn as RouteFn)({ request, params: init.params ?? {}, context: {} });
    if (value instanceof Response)
      return {
        status: value.status,
        location: value.headers.get('Location'),
        value: null,
        text: await value.text(),
        headers: value.headers,
      };
    const wrapped = value as unknown as { type?: string; data?: unknown; init?: { status?: number } | null };
    if (wrapped && wrapped.type === 'DataWithResponseInit')
      return { status: wrapped.init?.status ?? 200, location: null, value: wrapped.data, text: '', headers: null };
    return { status: 200, location: null, value, text: '', headers: null };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return {
      status: thrown.status,
      location: thrown.headers.get('Location'),
      value: null,
      text: await thrown.text(),
      headers: thrown.headers,
    };
  }
}
