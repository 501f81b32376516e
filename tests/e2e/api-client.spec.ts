import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import type { paths } from '../support/api-client/api-types';
import { API_TYPES_FILE, apiTypesSource } from '../support/api-client/generate';
import { E2E_APP_URL } from './support/env';
import { expect, test } from './support/fixtures';

// A client generated from the running app's /api/openapi.json (openapi-typescript types,
// openapi-fetch calls) talks to the app: the document is enough to use the API. The types it is
// compiled against are exactly what the served document generates today. About the server, not
// the browser: project js only.

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'runs in the js project only: it tests the server, once is enough');

test('a client generated from /api/openapi.json signs up, searches, reads a company and is told what a screen needs', async ({
  request,
}) => {
  const served = await request.get('/api/openapi.json');
  expect(served.status()).toBe(200);
  expect(await apiTypesSource(await served.json())).toBe(readFileSync(API_TYPES_FILE, 'utf8'));

  const api = createClient<paths, 'application/json'>({ baseUrl: E2E_APP_URL });

  // A new account has no access yet: the company pages are open to it, the screener is not.
  const email = `api-client-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'correct horse battery staple';
  const signup = await api.POST('/api/v2/auth/signup', {
    body: { email, full_name: 'Api Client', password, password_confirmation: password },
  });
  expect(signup.response.status).toBe(201);
  const token = signup.data?.access_token ?? '';
  expect(signup.data?.token_type).toBe('bearer');
  expect(token.length).toBeGreaterThan(20);
  const auth = { Authorization: `${signup.data?.token_type} ${token}` };

  const search = await api.GET('/api/v1/companies', { headers: auth, params: { query: { query: '', limit: 5 } } });
  expect(search.response.status).toBe(200);
  const listed = (search.data?.results ?? []).filter((c) => !c.is_delisted);
  expect(listed.length).toBeGreaterThan(0);
  const company = listed[0];

  const screen = {
    rules: [{ kind: 'value' as const, metric: 'price', op: '>' as const, value: 0 }],
    ranking: [{ metric: 'market_cap', direction: 'desc' as const, weight: 1 }],
    columns: ['price', 'market_cap'],
  };
  const refused = await api.POST('/api/v1/screener/run', { headers: auth, body: { screen, page_size: 5 } });
  expect(refused.response.status).toBe(403);
  expect(refused.error?.detail).toMatch(/has_access/);

  const guest = await api.POST('/api/v1/auth/signin/guest');
  expect(guest.response.status).toBe(200);
  const asGuest = await api.POST('/api/v1/screener/run', {
    headers: { Authorization: `bearer ${guest.data?.access_token ?? ''}` },
    body: { screen, page_size: 5 },
  });
  expect(asGuest.response.status).toBe(403);
  expect(asGuest.error?.detail).toMatch(/data browser/);

  const overview = await api.GET('/api/v1/company-overview/{id}', { headers: auth, params: { path: { id: company.ticker } } });
  expect(overview.response.status).toBe(200);
  expect(overview.data?.company.permaticker).toBe(company.permaticker);
  expect(overview.data?.prices.length).toBeGreaterThan(100);

  // Errors come back typed as the one {"detail"} shape.
  const missing = await api.GET('/api/v1/company-overview/{id}', { headers: auth, params: { path: { id: 'NO-SUCH-CO' } } });
  expect(missing.response.status).toBe(404);
  expect(missing.error?.detail).toBe('Unknown company: NO-SUCH-CO');
  const anonymous = await api.GET('/api/v1/company-overview/{id}', { params: { path: { id: company.ticker } } });
  expect(anonymous.response.status).toBe(401);
});
