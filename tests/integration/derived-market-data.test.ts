import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as valuationApi from '~/routes/api.v1.valuation.$id';
import * as marketApi from '~/routes/api.v1.market-overview';
import * as dataApi from '~/routes/api.v1.data.$permaticker.$metric';
import { companyHeader, DIVIDEND_METRICS, filingsAsOf, OVERVIEW_METRICS } from '~/services/company/company-pages.server';
import { recentFilings } from '~/services/company/companies.server';
import { companyValuation } from '~/services/company/valuation.server';
import { afterMarketDataChange } from '~/services/imports/post-import.server';
import { loadDemoUniverse } from '~/services/imports/load-demo.server';
import { silentProgress } from '~/services/imports/progress.server';
import { marketOverview } from '~/services/market-overview/market-overview.server';
import { closeMarketReader, openMarketReader } from '~/services/market/store/open-store.server';
import { companyMetricsAt, companyPageMetrics } from '~/services/metrics/company-metrics.server';
import { buildSnapshots } from '~/services/metrics/snapshots.server';
import { createUser } from '~/services/auth/users.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import { callRoute } from '../support/api';
import { useDatabase } from '../support/databases';

// The pages' derived data (filings list, valuation panel, stored market overview) is built with
// the snapshots after an import. The same demo universe is written twice: once with the derived
// tables and once without (the per-request computation they replace); every answer must agree.
// Then the caching headers of the market data answers: ETag from the store's version, public for
// anonymous callers of what guests may read (the data browser's series), private for callers
// with credentials, 304 for a caller that already has it.

const db = useDatabase('sqlite', 'derived-market-data');
const DEMO = { companies: 30, years: 6, seed: 11 };
let derived = '';
let plain = '';
let companies: { permaticker: number; ticker: string }[] = [];

beforeAll(async () => {
  derived = path.join(db.dataDir, 'market.duckdb');
  plain = path.join(db.dataDir, 'plain.duckdb');
  await loadDemoUniverse(derived, DEMO, silentProgress, { beforePublish: (work) => afterMarketDataChange(work, silentProgress) });
  await loadDemoUniverse(plain, DEMO, silentProgress, { beforePublish: (work) => buildSnapshots({ marketDb: work }) });
  const reader = await openMarketReader(derived);
  companies = await reader.all<{ permaticker: number; ticker: string }>(
    `SELECT permaticker, ticker FROM securities WHERE first_price_date < DATE '2022-01-01' ORDER BY permaticker`,
  );
  const tables = await reader.all<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables()`);
  reader.close();
  expect(tables.map((t) => t.name)).toEqual(
    expect.arrayContaining(['company_filings', 'valuation_history', 'valuation_sector_medians', 'market_overview_stored']),
  );
  const plainReader = await openMarketReader(plain);
  const plainTables = (await plainReader.all<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables()`)).map((t) => t.name);
  plainReader.close();
  expect(plainTables).not.toContain('valuation_history');
}, 240_000);

afterAll(() => closeMarketReader());

describe('derived tables agree with the per-request computation they replace', () => {
  it('valuation: every company, latest and as of a past date', async () => {
    expect(companies.length).toBeGreaterThan(10);
    for (const { ticker } of companies.slice(0, 10)) {
      for (const asOf of [null, '2023-03-15']) {
        const a = await companyValuation(await companyHeader(ticker, { file: derived }), asOf, { file: derived });
        const b = await companyValuation(await companyHeader(ticker, { file: plain }), asOf, { file: plain });
        expect(a, `${ticker} as of ${asOf}`).toEqual(b);
      }
    }
    const some = await companyValuation(await companyHeader(companies[0].ticker, { file: derived }), null, { file: derived });
    expect(some.series.find((s) => s.metric === 'ps_ttm')!.points.length).toBeGreaterThan(24);
    expect(some.series.some((s) => s.points.some((p) => p.sectorMedian !== null))).toBe(true);
  });

  it('valuation panel: rows of a company stored together and in date order (a company is read at a time)', async () => {
    const reader = await openMarketReader(derived);
    try {
      // No ORDER BY: the rows as the table holds them.
      const rows = await reader.all<{ permaticker: number; day: number }>(
        `SELECT permaticker, datediff('day', DATE '1970-01-01', date)::INTEGER AS day FROM valuation_history`,
      );
      expect(rows.length).toBeGreaterThan(500);
      const sorted = [...rows].sort((a, b) => a.permaticker - b.permaticker || a.day - b.day);
      expect(rows).toEqual(sorted);
    } finally {
      reader.close();
    }
  });

  it('company page metrics: the latest stored snapshot gives what evaluating the company gives', async () => {
    const ids = [...OVERVIEW_METRICS, ...DIVIDEND_METRICS];
    let fromSnapshot = 0;
    for (const { ticker, permaticker } of companies.slice(0, 12)) {
      const header = await companyHeader(ticker, { file: derived });
      for (const asOf of [null, '2099-01-01', '2023-05-31']) {
        const page = await companyPageMetrics(header, asOf, ids, { file: derived });
        expect(page, `${ticker} as of ${asOf}`).toEqual(await companyMetricsAt(permaticker, asOf, ids, { file: derived }));
      }
      if (!header.is_delisted) fromSnapshot++;
    }
    expect(fromSnapshot).toBeGreaterThan(5);
  });

  it('filings of a company (pages and profile), latest and as of a past date', async () => {
    for (const { ticker, permaticker } of companies.slice(0, 8)) {
      const header = await companyHeader(ticker, { file: derived });
      for (const asOf of [null, '2022-08-01']) {
        expect(await filingsAsOf(header, asOf, 8, { file: derived })).toEqual(await filingsAsOf(header, asOf, 8, { file: plain }));
      }
      expect(await recentFilings(permaticker, 10, { file: derived })).toEqual(await recentFilings(permaticker, 10, { file: plain }));
    }
  });

  it('market overview: the stored latest one and a past date', async () => {
    for (const asOf of [null, '2023-09-29']) {
      const a = await marketOverview(asOf, { file: derived });
      const b = await marketOverview(asOf, { file: plain });
      // The benchmark's daily means are summed in another order by the two queries.
      const { benchmark: ba, benchmarkReturn: ra, ...restA } = a;
      const { benchmark: bb, benchmarkReturn: rb, ...restB } = b;
      expect(restA).toEqual(restB);
      expect(ba.map((p) => p.date)).toEqual(bb.map((p) => p.date));
      ba.forEach((p, i) => expect(p.value).toBeCloseTo(bb[i].value, 9));
      expect(ra).toBeCloseTo(rb as number, 9);
      expect(a.sectors.length).toBeGreaterThan(2);
      expect(a.filings.length).toBe(10);
    }
  });
});

describe('caching headers of the market data answers', () => {
  const saved = process.env.MARKET_DB;
  beforeAll(() => {
    process.env.MARKET_DB = derived;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.MARKET_DB;
    else process.env.MARKET_DB = saved;
  });

  let token = '';
  beforeAll(async () => {
    const user = await createUser({
      email: 'cache-reader@example.com',
      password: 'correct horse battery',
      full_name: 'Cache Reader',
      access: true,
    });
    token = (await issueUserToken(user.id)).access_token;
  });

  it('tags an anonymous answer with the snapshot id and lets shared caches keep it', async () => {
    const reader = await openMarketReader(derived);
    const [{ value: snapshotId }] = await reader.all<{ value: string }>(`SELECT value FROM meta WHERE key = 'snapshot_id'`);
    reader.close();
    const p = companies[0].permaticker;
    const r = await callRoute(dataApi, {
      path: `/api/v1/data/${p}/revenue_ttm`,
      params: { permaticker: String(p), metric: 'revenue_ttm' },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('ETag')).toMatch(new RegExp(`^W/"${snapshotId}\\.e\\d+"$`));
    expect(r.headers.get('Cache-Control')).toBe('public, max-age=300');
    expect(r.headers.get('Vary')).toBe('Authorization, Cookie');
    // Company data needs an account with access: the same version tag, kept by the caller only.
    const v = await callRoute(valuationApi, {
      path: `/api/v1/valuation/${companies[0].ticker}`,
      params: { id: companies[0].ticker },
      token,
    });
    expect(v.status).toBe(200);
    expect(v.headers.get('ETag')).toBe(r.headers.get('ETag'));
    expect(v.headers.get('Cache-Control')).toBe('private, no-cache');
    const anonymous = await callRoute(valuationApi, {
      path: `/api/v1/valuation/${companies[0].ticker}`,
      params: { id: companies[0].ticker },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ETag')).toBeNull();
  });

  it('answers 304 without a body to a caller that has the current version, 200 to one with an older one', async () => {
    const first = await callRoute(marketApi, { path: '/api/v1/market-overview?format=csv&table=movers', token });
    const etag = first.headers.get('ETag') as string;
    const again = await callRoute(marketApi, {
      path: '/api/v1/market-overview?format=csv&table=movers',
      headers: { 'If-None-Match': etag },
      token,
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('ETag')).toBe(etag);
    const listed = await callRoute(marketApi, {
      path: '/api/v1/market-overview',
      headers: { 'If-None-Match': `W/"older", ${etag}` },
      token,
    });
    expect(listed.status).toBe(304);
    const stale = await callRoute(marketApi, { path: '/api/v1/market-overview', headers: { 'If-None-Match': 'W/"0123.e1"' }, token });
    expect(stale.status).toBe(200);
    expect((stale.body as { sectors: unknown[] }).sectors.length).toBeGreaterThan(2);
  });

  it('keeps answers to callers with credentials private, and errors uncached', async () => {
    const p = companies[0].permaticker;
    const signed = await callRoute(dataApi, {
      path: `/api/v1/data/${p}/revenue_ttm`,
      params: { permaticker: String(p), metric: 'revenue_ttm' },
      token,
    });
    expect(signed.status).toBe(200);
    expect(signed.headers.get('Cache-Control')).toBe('private, no-cache');
    expect(signed.headers.get('ETag')).toMatch(/^W\/"/);
    const missing = await callRoute(dataApi, {
      path: `/api/v1/data/${p}/no_such_metric`,
      params: { permaticker: String(p), metric: 'no_such_metric' },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ETag')).toBeNull();
    expect(missing.headers.get('Cache-Control')).toBe('no-store');
    const bad = await callRoute(marketApi, { path: '/api/v1/market-overview?as_of=2023-02-30', token });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('Cache-Control')).toBe('no-store');
  });
});
