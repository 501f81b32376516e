import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as openapi from '~/routes/api.openapi[.]json';
import { callRoute } from '../support/api';

// /api/openapi.json documents every endpoint that exists: the list of API route files is the truth.

/** Route file name → URL path template (Remix flat routes: dots are slashes, $x is {x}, [.] a dot, _index a trailing slash). */
function pathOf(file: string): string {
  const name = file.replace(/\.tsx?$/, '').replaceAll('[.]', '\u0000');
  return (
    '/' +
    name
      .split('.')
      .map((s) => (s.startsWith('$') ? `{${s.slice(1) === 'permaticker' ? 'permaticker' : s.slice(1)}}` : s === '_index' ? '' : s))
      .join('/')
      .replaceAll('\u0000', '.')
  );
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with every API route file in it', async () => {
    const r = await callRoute(openapi, { path: '/api/openapi.json' });
    expect(r.status).toBe(200);
    const doc = r.body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    const files = readdirSync(path.resolve('app/routes')).filter((f) => f.startsWith('api.') && /\.tsx$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    const documented = Object.keys(doc.paths);
    for (const f of files) expect(documented, f).toContain(pathOf(f));
    for (const p of documented) expect(files.map(pathOf), p).toContain(p);
  });

  it('marks the CSV tables and the authenticated calls', async () => {
    const doc = (await callRoute(openapi, { path: '/api/openapi.json' })).body as {
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    expect(Object.keys(doc.paths['/api/v1/financials/{id}'].get.responses['200'].content ?? {})).toContain('text/csv');
    expect(doc.paths['/api/v1/auth/me'].get.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(doc.paths['/api/v1/auth/me'])).toEqual(['get', 'patch', 'delete']);
  });
});
