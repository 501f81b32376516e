import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../http/errors';
import { getCompanyProfile, recentFilings, resolveCompanyId, searchCompanies, searchCompaniesPage } from './companies.server';
import { corporateActions, priceSeries } from './prices.server';
import { closeMarketReader } from '../market/store/open-store.server';
import { writeMarketFixture } from '../market/store/test-fixture.server';

const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-companies-'));
const file = path.join(dir, 'market.duckdb');
const opts = { file };

beforeAll(() => writeMarketFixture(file));
afterAll(() => {
  closeMarketReader();
  rmSync(dir, { recursive: true, force: true });
});

describe('company search', () => {
  it('ranks the exact ticker first, then former tickers, prefixes and names', async () => {
    const hits = await searchCompanies('acm', 10, opts);
    expect(hits.map((h) => [h.ticker, h.match])).toEqual([
      ['ACM', 'ticker'],
      ['ACME', 'ticker_prefix'],
      ['OLD', 'name_word'],
    ]);
    expect((await searchCompanies('ACMW', 5, opts))[0]).toMatchObject({ permaticker: 1, match: 'former_ticker' });
    expect((await searchCompanies('widgets', 5, opts)).map((h) => h.permaticker)).toEqual([1]);
  });

  it('puts the listed holder of a recycled ticker before the delisted one, and honours the limit', async () => {
    expect((await searchCompanies('RCY', 5, opts)).map((h) => h.permaticker)).toEqual([6, 5]);
    expect(await searchCompanies('a', 2, opts)).toHaveLength(2);
    expect(await searchCompanies('%', 5, opts)).toEqual([]);
  });

  it('pages the matches and counts all of them', async () => {
    const all = await searchCompanies('a', 100, opts);
    expect(all.length).toBeGreaterThan(2);
    expect(all[0]).not.toHaveProperty('total');
    const first = await searchCompaniesPage('a', 1, 2, opts);
    expect(first).toMatchObject({ total: all.length, page: 1, pageCount: Math.ceil(all.length / 2) });
    expect(first.hits.map((h) => h.permaticker)).toEqual(all.slice(0, 2).map((h) => h.permaticker));
    const second = await searchCompaniesPage('a', 2, 2, opts);
    expect(second.hits.map((h) => h.permaticker)).toEqual(all.slice(2, 4).map((h) => h.permaticker));
    const past = await searchCompaniesPage('a', 99, 2, opts);
    expect(past).toMatchObject({ hits: [], total: all.length });
    expect(await searchCompaniesPage('%', 1, 2, opts)).toMatchObject({ hits: [], total: 0, pageCount: 1 });
  });
});

describe('company ids', () => {
  it('resolves a ticker to its holder now, or to the latest holder when delisted', async () => {
    expect(await resolveCompanyId('RCY', opts)).toBe(6);
    expect(await resolveCompanyId('gone', opts)).toBe(8);
    expect(await resolveCompanyId('OLD', opts)).toBe(3);
    expect(await resolveCompanyId('ACMW', opts)).toBe(1);
    expect(await resolveCompanyId('5', opts)).toBe(5);
    expect(await resolveCompanyId('NOPE', opts)).toBeNull();
    expect(await resolveCompanyId('4', opts)).toBeNull();
  });

  it('builds a profile with ticker history, latest price and filings; unknown ids are 404', async () => {
    const profile = await getCompanyProfile('acme', opts);
    expect(profile).toMatchObject({
      permaticker: 1,
      ticker: 'ACME',
      cik: '0000000042',
      is_demo: false,
      latest_price: { date: '2020-01-07', close: 54 },
    });
    expect(profile.tickers.map((t) => t.ticker)).toEqual(['ACMW', 'ACME']);
    expect(profile.filings.map((f) => [f.form, f.filed, f.fiscal_period])).toEqual([
      ['10-K', '2020-02-20', 'FY'],
      ['10-Q', '2019-11-01', 'Q3'],
    ]);
    expect(profile.filings[0].url).toBe('https://www.sec.gov/Archives/edgar/data/42/000000004220000003/0000000042-20-000003-index.htm');
    await expect(getCompanyProfile('NOPE', opts)).rejects.toMatchObject({ status: 404, detail: 'Unknown company: NOPE' });
  });

  it('never links demo filings to the SEC', async () => {
    const [filing] = await recentFilings(9, 5, opts);
    expect(filing.accession).toBe('9900000009-19-000001');
    expect(filing.url).toBeNull();
  });
});

describe('price series', () => {
  it('answers split-adjusted prices by default and prices as traded on request', async () => {
    const adjusted = await priceSeries(1, {}, opts);
    expect(adjusted.prices.map((x) => x.close)).toEqual([50, 51, 52, 54]);
    const traded = await priceSeries(1, { adjusted: false, from: '2020-01-03', to: '2020-01-06' }, opts);
    expect(traded.prices.map((x) => [x.date, x.close])).toEqual([
      ['2020-01-03', 102],
      ['2020-01-06', 52],
    ]);
    expect(traded.prices[0].high).toBeCloseTo(102 * 1.01, 10);
    expect(traded.actions).toEqual([{ date: '2020-01-06', action: 'split', value: 2, detail: '2-for-1', source: 'fixture' }]);
    expect((await corporateActions(1, {}, opts)).map((a) => a.action)).toEqual(['ticker_change', 'split']);
  });

  it('refuses unknown securities and inverted ranges', async () => {
    await expect(priceSeries(4, {}, opts)).rejects.toMatchObject({ status: 404 });
    await expect(priceSeries(1, { from: '2020-02-01', to: '2020-01-01' }, opts)).rejects.toBeInstanceOf(DomainError);
  });

  it('answers 503 with the how-to when there is no market data', async () => {
    await expect(searchCompanies('a', 5, { file: path.join(dir, 'missing.duckdb') })).rejects.toMatchObject({
      status: 503,
      detail: expect.stringMatching(/npm run data -- demo/),
    });
  });
});
