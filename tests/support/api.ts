// Calls a Remix route module's loader or action with a real Request, as Remix would.

type RouteFn = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Response | Promise<Response>;
export type RouteModule = { loader?: unknown; action?: unknown };

export type ApiAnswer = { status: number; headers: Headers; body: unknown; text: string };

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
  } = {},
): Promise<ApiAnswer> {
  const method = opts.method ?? (opts.json !== undefined || opts.body !== undefined ? 'POST' : 'GET');
  const headers = new Headers(opts.headers);
  let body: BodyInit | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  }
  if (opts.token) headers.set('Authorization', `bearer ${opts.token}`);
  if (opts.authorization) headers.set('Authorization', opts.authorization);
  const request = new Request(`http://localhost${opts.path ?? '/api'}`, { method, headers, body });
  const fn = (method === 'GET' || method === 'HEAD' ? mod.loader : mod.action) as RouteFn | undefined;
  if (!fn) throw new Error(`route module has no ${method === 'GET' ? 'loader' : 'action'}`);
  const response = await fn({ request, params: opts.params ?? {}, context: {} });
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}
