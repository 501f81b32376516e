import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '~/services/auth/users.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import { resetConfigForTests } from '~/services/config.server';
import { closeDb } from '~/services/db/db.server';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { writeMarketFixture } from '~/services/market/store/test-fixture.server';
import { contractProblem } from '../../tests/support/api-contract';
import { loader as searchLoader, action as searchAction } from './api.v1.companies';
import { loader as profileLoader } from './api.v1.companies.$id';
import { loader as pricesLoader } from './api.v1.prices.$permaticker';

let dir: string;
let token = '';
// The account lives in this test's own SQLite file, never in a shared PostgreSQL database.
const saved = { MARKET_DB: process.env.MARKET_DB, DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-companies-api-'));
  process.env.DATA_DIR = dir;
  process.env.MARKET_DB = path.join(dir, 'market.duckdb');
  delete process.env.DATABASE_URL;
  await closeDb();
  resetConfigForTests();
  await writeMarketFixture(process.env.MARKET_DB);
  // Company data is for accounts with access, as on the company pages.
  const user = await createUser({ email: 'reader@example.com', password: 'correct horse battery', full_name: 'Reader', access: true });
  token = (await issueUserToken(user.id)).access_token;
});

afterAll(async () => {
  closeMarketReader();
  await closeDb();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfigForTests();
  rmSync(dir, { recursive: true, force: true });
});

type Loader = (args: LoaderFunctionArgs) => Promise<Response>;
async function call(loader: Loader, url: string, params: Record<string, string> = {}, auth: string | null = `Bearer ${token}`) {
  const request = new Request(`http://localhost${url}`, { headers: auth ? { Authorization: auth } : {} });
  const response = await loader({ request, params, context: {} } as LoaderFunctionArgs);
  const body = (await response.json()) as Record<string, unknown>;
  const type = response.headers.get('Content-Type');
  expect(contractProblem('GET', new URL(request.url).pathname, response.status, type ?? '', body)).toBeNull();
  return { status: response.status, type, body };
}

describe('GET /api/v1/companies', () => {
  it('searches by ticker or name, exact ticker first', async () => {
    const { status, type, body } = await call(searchLoader, '/api/v1/companies?query=acm&limit=2');
    expect(status).toBe(200);
    expect(type).toContain('application/json');
    expect(body.query).toBe('acm');
    expect((body.results as { ticker: string }[]).map((r) => r.ticker)).toEqual(['ACM', 'ACME']);
  });

  it('answers 401 {detail} to a caller without a token', async () => {
    const { status, body } = await call(searchLoader, '/api/v1/companies?query=acm', {}, null);
    expect(status).toBe(401);
    expect(body.detail).toMatch(/sign/i);
  });

  it('answers 422 {detail} for a bad limit and 405 for other methods', async () => {
    for (const q of ['limit=0', 'limit=abc', 'limit=101', 'limit=2.5']) {
      const { status, body } = await call(searchLoader, `/api/v1/companies?query=a&${q}`);
      expect(status).toBe(422);
      expect(body.detail).toBe('Invalid query parameters.');
      expect(body.errors).toHaveProperty('limit');
    }
    const response = await searchAction({
      request: new Request('http://localhost/api/v1/companies', { method: 'POST' }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(405);
  });
});

describe('GET /api/v1/companies/{ticker|permaticker}', () => {
  it('answers the profile by ticker (current or latest holder) and by permaticker', async () => {
    expect((await call(profileLoader, '/api/v1/companies/RCY', { id: 'RCY' })).body).toMatchObject({
      permaticker: 6,
      name: 'Recycled Second Co.',
    });
    expect((await call(profileLoader, '/api/v1/companies/5', { id: '5' })).body).toMatchObject({ permaticker: 5, is_delisted: true });
    const { status, body } = await call(profileLoader, '/api/v1/companies/ACME', { id: 'ACME' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ticker: 'ACME', tickers: [{ ticker: 'ACMW' }, { ticker: 'ACME' }] });
  });

  it('answers 404 {detail} for an unknown company', async () => {
    const { status, body } = await call(profileLoader, '/api/v1/companies/NOPE', { id: 'NOPE' });
    expect(status).toBe(404);
    expect(body).toEqual({ detail: 'Unknown company: NOPE' });
  });
});

describe('GET /api/v1/prices/{permaticker}', () => {
  it('answers adjusted prices by default and prices as traded with adjusted=false', async () => {
    const adjusted = await call(pricesLoader, '/api/v1/prices/1', { permaticker: '1' });
    expect(adjusted.status).toBe(200);
    expect((adjusted.body.prices as { close: number }[]).map((p) => p.close)).toEqual([50, 51, 52, 54]);
    const traded = await call(pricesLoader, '/api/v1/prices/1?adjusted=false&from=2020-01-03&to=2020-01-03', { permaticker: '1' });
    expect(traded.body).toMatchObject({
      adjusted: false,
      from: '2020-01-03',
      to: '2020-01-03',
      prices: [{ date: '2020-01-03', close: 102 }],
    });
  });

  it('answers 422 for bad parameters and 404 for unknown securities', async () => {
    for (const q of ['from=2020-13-01', 'to=yesterday', 'adjusted=maybe', 'from=2020-02-01&to=2020-01-01']) {
      const { status, body } = await call(pricesLoader, `/api/v1/prices/1?${q}`, { permaticker: '1' });
      expect(status).toBe(422);
      expect(typeof body.detail).toBe('string');
    }
    for (const id of ['4', 'abc', '0', '99999999999']) {
      const { status, body } = await call(pricesLoader, `/api/v1/prices/${id}`, { permaticker: id });
      expect(status).toBe(404);
      expect(body.detail).toMatch(/^Unknown security/);
    }
  });
});
