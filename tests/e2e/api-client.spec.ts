import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import type { paths } from '../support/api-client/api-types';
import { API_TYPES_FILE, apiTypesSource } from '../support/api-client/generate';
import { E2E_APP_URL } from './support/env';
import { expect, test } from './support/fixtures';

// A client generated from the running app's /api/openapi.json (openapi-typescript types,
// openapi-fetch calls) talks to the app: the document is enough to use the API. The types it is
// compiled against are exactly what the served document generates today.

test('a client generated from /api/openapi.json signs in as a guest, searches, runs a screen and reads a company', async ({ request }) => {
  const served = await request.get('/api/openapi.json');
  expect(served.status()).toBe(200);
  expect(await apiTypesSource(await served.json())).toBe(readFileSync(API_TYPES_FILE, 'utf8'));

  const api = createClient<paths, 'application/json'>({ baseUrl: E2E_APP_URL });

  const guest = await api.POST('/api/v1/auth/signin/guest');
  expect(guest.response.status).toBe(200);
  const token = guest.data?.access_token ?? '';
  expect(guest.data?.token_type).toBe('bearer');
  expect(token.length).toBeGreaterThan(20);
  const auth = { Authorization: `${guest.data?.token_type} ${token}` };

  const search = await api.GET('/api/v1/companies', { params: { query: { query: '', limit: 5 } } });
  expect(search.response.status).toBe(200);
  const listed = (search.data?.results ?? []).filter((c) => !c.is_delisted);
  expect(listed.length).toBeGreaterThan(0);
  const company = listed[0];

  const run = await api.POST('/api/v1/screener/run', {
    headers: auth,
    body: {
      screen: {
        rules: [{ kind: 'value', metric: 'price', op: '>', value: 0 }],
        ranking: [{ metric: 'market_cap', direction: 'desc', weight: 1 }],
        columns: ['price', 'market_cap'],
      },
      page_size: 5,
      explain: company.permaticker,
    },
  });
  expect(run.response.status).toBe(200);
  expect(run.data?.rows).toHaveLength(5);
  expect(run.data?.rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
  expect(run.data?.explanation?.permaticker).toBe(company.permaticker);

  const overview = await api.GET('/api/v1/company-overview/{id}', { params: { path: { id: company.ticker } } });
  expect(overview.response.status).toBe(200);
  expect(overview.data?.company.permaticker).toBe(company.permaticker);
  expect(overview.data?.prices.length).toBeGreaterThan(100);

  // Errors come back typed as the one {"detail"} shape.
  const missing = await api.GET('/api/v1/company-overview/{id}', { params: { path: { id: 'NO-SUCH-CO' } } });
  expect(missing.response.status).toBe(404);
  expect(missing.error?.detail).toBe('Unknown company: NO-SUCH-CO');
});
