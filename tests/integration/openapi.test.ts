import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as openapi from '~/routes/api.openapi[.]json';
import { API_OPERATIONS } from '~/services/api-operations';
import { callRoute, type RouteModule } from '../support/api';
import { contractProblem } from '../support/api-contract';

// /api/openapi.json is generated from the API contract (services/api-operations.ts), and the
// contract is held against the route files: every API route is documented with exactly the
// methods it answers, and every documented path is a route. The answers themselves are checked
// against their schemas by every API test (tests/support/api-contract.ts, run by callRoute).

type Doc = {
  openapi: string;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  paths: Record<
    string,
    Record<
      string,
      { security?: unknown; parameters?: { name: string; in: string }[]; responses: Record<string, { content?: Record<string, unknown> }> }
    >
  >;
};

/** Route file name → URL path template (Remix flat routes: dots are slashes, $x is {x}, [.] a dot, _index a trailing slash). */
function pathOf(file: string): string {
  const name = file.replace(/\.tsx?$/, '').replaceAll('[.]', '\u0000');
  return (
    '/' +
    name
      .split('.')
      .map((s) => (s.startsWith('$') ? `{${s.slice(1)}}` : s === '_index' ? '' : s))
      .join('/')
      .replaceAll('\u0000', '.')
  );
}

const routeFiles = readdirSync(path.resolve('app/routes')).filter((f) => f.startsWith('api.') && /\.tsx$/.test(f));
const modules = import.meta.glob<RouteModule>('../../app/routes/api.*.tsx', { eager: true });
const moduleOf = (file: string) => modules[`../../app/routes/${file}`];

async function document(): Promise<Doc> {
  const r = await callRoute(openapi, { path: '/api/openapi.json' });
  expect(r.status).toBe(200);
  return r.body as Doc;
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with exactly the API route files in it', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    expect(routeFiles.length).toBeGreaterThan(30);
    const documented = Object.keys(doc.paths);
    for (const f of routeFiles) expect(documented, f).toContain(pathOf(f));
    for (const p of documented) expect(routeFiles.map(pathOf), p).toContain(p);
  });

  it('has request and answer schemas: path parameters, queries, bodies and named answer types', async () => {
    const doc = await document();
    const watchlist = doc.paths['/api/v1/watchlists/{id}/items'].post as unknown as {
      parameters: { name: string; in: string }[];
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
      responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
    };
    expect(watchlist.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path' }));
    expect(Object.keys(watchlist.requestBody.content['application/json'].schema.properties)).toEqual(['permaticker', 'note']);
    expect(watchlist.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/WatchlistItem');
    expect(watchlist.responses['422'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    for (const name of ['Screen', 'Backtest', 'Watchlist', 'User', 'Token', 'Company', 'Statement', 'Error'])
      expect(Object.keys(doc.components.schemas)).toContain(name);
    const query = (doc.paths['/api/v1/financials/{id}'].get.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(query.sort()).toEqual(['as_of', 'format', 'period', 'statement']);
    expect(Object.keys(doc.paths['/api/v1/financials/{id}'].get.responses['200'].content ?? {})).toEqual(['application/json', 'text/csv']);
    expect(doc.paths['/api/v1/auth/me'].get.security).toEqual([{ bearer: [] }]);
    // The access rules decide market data: a token, or none while guest mode is on.
    expect(doc.paths['/api/v1/metrics'].get.security).toEqual([{ bearer: [] }, {}]);
    expect(doc.paths['/api/apiurl'].get.security).toBeUndefined();
  });

  it('documents exactly the methods each route answers: any other method is a 405', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const op of API_OPERATIONS) byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method));
    for (const file of routeFiles) {
      const mod = moduleOf(file);
      const documented = byPath.get(pathOf(file)) ?? new Set();
      expect(Boolean(mod.loader), `${file} has a loader`).toBe(true);
      if ([...documented].some((m) => m !== 'get')) expect(Boolean(mod.action), `${file} has an action`).toBe(true);
      const params = Object.fromEntries([...pathOf(file).matchAll(/\{([^}]+)\}/g)].map(([, name]) => [name, '1']));
      const url = pathOf(file).replace(/\{[^}]+\}/g, '1');
      for (const method of ['get', 'post', 'patch', 'delete'].filter((m) => !documented.has(m))) {
        const r = await callRoute(mod, { method: method.toUpperCase(), path: url, params });
        expect(r.status, `${method} ${url}`).toBe(405);
      }
    }
  });

  it('catches answers that break the contract', () => {
    expect(contractProblem('GET', '/api/v1/metrics', 200, 'application/json', { categories: [] })).toMatch(/metrics: Required/);
    expect(contractProblem('GET', '/api/v1/nowhere', 200, 'application/json', {})).toMatch(/no such operation/);
    expect(contractProblem('GET', '/api/v1/metrics', 201, 'application/json', {})).toMatch(/status not documented/);
    expect(contractProblem('GET', '/api/v1/metrics', 418, 'application/json', { detail: 'x' })).toMatch(/status not documented/);
    expect(
      contractProblem('POST', '/api/v1/auth/signin/guest', 200, 'application/json', { access_token: 'a', token_type: 'bearer', extra: 1 }),
    ).toMatch(/Unrecognized key/);
    expect(
      contractProblem('POST', '/api/v1/auth/signin/guest', 200, 'application/json', { access_token: 'a', token_type: 'bearer' }),
    ).toBeNull();
    expect(contractProblem('GET', '/api/v1/watchlists/abc', 404, 'application/json', { detail: 'Watchlist not found.' })).toBeNull();
  });
});
