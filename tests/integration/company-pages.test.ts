import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as companyApi from '~/routes/api.v1.company-overview.$id';
import * as browserApi from '~/routes/api.v1.data-browser.$permaticker.$metric';
import * as dividendsApi from '~/routes/api.v1.dividends.$id';
import * as financialsApi from '~/routes/api.v1.financials.$id';
import * as marketApi from '~/routes/api.v1.market-overview';
import * as valuationApi from '~/routes/api.v1.valuation.$id';
import * as home from '~/routes/_app._index';
import * as chart from '~/routes/_app.company.$id.chart';
import * as dividend from '~/routes/_app.company.$id.dividend';
import * as financial from '~/routes/_app.company.$id.financial';
import * as companyIndex from '~/routes/_app.company.$id._index';
import * as companyLayout from '~/routes/_app.company.$id';
import * as overview from '~/routes/_app.company.$id.overview';
import * as valuation from '~/routes/_app.company.$id.valuation';
import * as search from '~/routes/_app.company._index';
import * as browserIndex from '~/routes/_app.data-browser._index';
import * as browser from '~/routes/_app.data-browser.$permaticker.$metric';
import { commitSession, getSession, setGuestToken, setSignedIn } from '~/services/auth/session.server';
import { companyHeader, companyOverview } from '~/services/company/company-pages.server';
import { csvCell } from '~/services/http/csv';
import { issueGuestToken, issueUserToken } from '~/services/auth/tokens.server';
import { createUser } from '~/services/auth/users.server';
import { loadDemoUniverse } from '~/services/imports/load-demo.server';
import { silentProgress } from '~/services/imports/progress.server';
import { closeMarketReader, openMarketReader } from '~/services/market/store/open-store.server';
import { buildSnapshots } from '~/services/metrics/snapshots.server';
import { callRoute } from '../support/api';
import { useDatabase } from '../support/databases';

// Company pages, data browser and home page loaders with real Requests, real session cookies and
// a small demo market in a real DuckDB file.

type Loader = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown;
// Loader results are checked field by field below; a loose type keeps those checks short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
type Outcome = { status: number; location: string | null; value: Loose; text: string };

async function load(mod: { loader: unknown }, url: string, params: Record<string, string>, cookie?: string): Promise<Outcome> {
  const request = new Request(`http://localhost${url}`, { headers: cookie ? { Cookie: cookie } : {} });
  try {
    const value: Loose = await (mod.loader as Loader)({ request, params, context: {} });
    // data(value, {status}) from @remix-run/node
    if (value && value.type === 'DataWithResponseInit')
      return { status: value.init?.status ?? 200, location: null, value: value.data, text: '' };
    return { status: 200, location: null, value, text: '' };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { status: thrown.status, location: thrown.headers.get('Location'), value: null, text: await thrown.text() };
  }
}

const db = useDatabase('sqlite', 'company-pages');
let cookie = '';
let guestCookie = '';
let ticker = '';
let permaticker = 0;
let payer = 0;
let others: number[] = [];

beforeAll(async () => {
  const file = path.join(db.dataDir, 'market.duckdb');
  await loadDemoUniverse(file, { companies: 24, years: 6, seed: 5 }, silentProgress, {
    beforePublish: (work) => buildSnapshots({ marketDb: work }),
  });
  const reader = await openMarketReader(file);
  const rows = await reader.all<{ permaticker: number; ticker: string }>(
    `SELECT s.permaticker, s.ticker FROM securities s WHERE NOT is_delisted AND first_price_date < DATE '2021-03-01' AND EXISTS (SELECT 1 FROM facts f WHERE f.permaticker = s.permaticker) ORDER BY permaticker`,
  );
  const payers = await reader.all<{ permaticker: number }>(
    `SELECT permaticker FROM corporate_actions WHERE action = 'dividend' GROUP BY permaticker HAVING count(*) > 8 ORDER BY permaticker LIMIT 1`,
  );
  reader.close();
  ({ permaticker, ticker } = rows[0]);
  others = rows.slice(1, 3).map((r) => r.permaticker);
  payer = payers[0].permaticker;
  const session = await getSession(new Request('http://localhost/'));
  const user = await createUser({
    email: 'reader@example.com',
    password: 'correct horse battery',
    full_name: 'Grace Reader',
    access: true,
  });
  setSignedIn(session, await issueUserToken(user.id), user);
  cookie = (await commitSession(session)).split(';')[0];
  const guest = await getSession(new Request('http://localhost/'));
  setGuestToken(guest, issueGuestToken());
  guestCookie = (await commitSession(guest)).split(';')[0];
}, 120_000);

afterAll(() => closeMarketReader());

describe('company search and routing', () => {
  it('finds a company by ticker', async () => {
    const r = await load(search, `/company?query=${ticker}`, {}, cookie);
    expect(r.status).toBe(200);
    expect(r.value.results[0]).toMatchObject({ permaticker, ticker });
  });

  it('redirects /company/{ticker} to the overview by permaticker, keeping as_of', async () => {
    const r = await load(companyIndex, `/company/${ticker}?as_of=2024-01-31`, { id: ticker }, cookie);
    expect(r).toMatchObject({ status: 302, location: `/company/${permaticker}/overview?as_of=2024-01-31` });
  });

  it('answers 404 for an unknown company', async () => {
    const r = await load(companyLayout, '/company/NOPE-NOPE', { id: 'NOPE-NOPE' }, cookie);
    expect(r.status).toBe(404);
    const o = await load(overview, '/company/99999999/overview', { id: '99999999' }, cookie);
    expect(o.status).toBe(404);
  });

  it('sends a guest away from /company but lets them use the data browser', async () => {
    const r = await load(overview, `/company/${permaticker}/overview`, { id: String(permaticker) }, guestCookie);
    expect(r).toMatchObject({ status: 302, location: '/data-browser' });
    const b = await load(
      browser,
      `/data-browser/${permaticker}/revenue_ttm`,
      { permaticker: String(permaticker), metric: 'revenue_ttm' },
      guestCookie,
    );
    expect(b.status).toBe(200);
  });
});

describe('company tabs', () => {
  const params = () => ({ id: String(permaticker) });

  it('overview: as of an older date shows the older price and only filings known then', async () => {
    const latest = await load(overview, `/company/${permaticker}/overview`, params(), cookie);
    const old = await load(overview, `/company/${permaticker}/overview?as_of=2023-06-30`, params(), cookie);
    expect(latest.status).toBe(200);
    expect(old.value.overview.metrics.date <= '2023-06-30').toBe(true);
    expect(old.value.overview.metrics.date > '2023-06-20').toBe(true);
    expect(latest.value.overview.metrics.date > old.value.overview.metrics.date).toBe(true);
    for (const f of old.value.overview.filings) expect(f.filed < '2023-06-30').toBe(true);
    // Demo accessions are fictional: no SEC link.
    expect(old.value.overview.filings.length).toBeGreaterThan(0);
    for (const f of old.value.overview.filings) expect(f.url).toBeNull();
  });

  it("overview: the page's data carries the closes of the last 12 months, those of the full overview", async () => {
    const page = await load(overview, `/company/${permaticker}/overview?as_of=2023-06-30`, params(), cookie);
    const full = await companyOverview(await companyHeader(String(permaticker)), '2023-06-30');
    expect(full.prices.length).toBeGreaterThan(200);
    expect(page.value.overview.prices).toEqual(full.prices.map((p) => ({ date: p.date, close: p.close })));
    expect(page.value.overview.metrics).toEqual(full.metrics);
    expect(page.value.overview.filings).toEqual(full.filings);
  });

  it('every tab answers 400 with a message for a bad as_of, never a 500', async () => {
    for (const mod of [overview, chart, financial, dividend, valuation]) {
      const r = await load(mod, `/company/${permaticker}/x?as_of=2023-02-30`, params(), cookie);
      expect(r.status).toBe(400);
      expect(r.value.error).toMatch(/YYYY-MM-DD/);
    }
  });

  it('chart: the range and moving averages', async () => {
    const r = await load(chart, `/company/${permaticker}/chart?range=6M&ma=1&as_of=2024-12-31`, params(), cookie);
    const points = r.value.view.points as { date: string; sma200: number | null }[];
    expect(points[0].date >= '2024-07-01').toBe(true);
    expect(points.at(-1)!.date <= '2024-12-31').toBe(true);
    expect(points.at(-1)!.sma200).not.toBeNull();
  });

  it('financial: quarterly columns only from filings known on the as-of date, each cell with its filing', async () => {
    const r = await load(financial, `/company/${permaticker}/financial?period=quarterly&as_of=2024-03-31`, params(), cookie);
    const st = r.value.statement;
    expect(st.columns.length).toBeGreaterThan(4);
    const revenue = st.lines.find((l: { id: string }) => l.id === 'revenue');
    const cells = revenue.cells.filter(Boolean);
    expect(cells.length).toBeGreaterThan(0);
    for (const c of cells) {
      expect(c.filed < '2024-03-31').toBe(true);
      expect(c.accession).toBeTruthy();
    }
    const later = await load(financial, `/company/${permaticker}/financial?period=quarterly`, params(), cookie);
    expect(later.value.statement.columns.length).toBeGreaterThan(st.columns.length);
  });

  it('dividend and valuation tabs load', async () => {
    const d = await load(dividend, `/company/${payer}/dividend`, { id: String(payer) }, cookie);
    expect(d.value.dividends.history.length).toBeGreaterThan(8);
    expect(d.value.dividends.metrics.values.dividend_ttm).toBeGreaterThan(0);
    const v = await load(valuation, `/company/${permaticker}/valuation`, params(), cookie);
    expect(v.value.valuation.series).toHaveLength(6);
    expect(v.value.valuation.series[0].points.length).toBeGreaterThan(12);
  });
});

describe('data browser', () => {
  it('redirects the pick form to the stable URL', async () => {
    const r = await load(browserIndex, `/data-browser?company=${ticker}&metric=pe_ttm`, {}, guestCookie);
    expect(r).toMatchObject({ status: 302, location: `/data-browser/${permaticker}/pe_ttm` });
    const bad = await load(browserIndex, `/data-browser?company=NOPE-NOPE&metric=pe_ttm`, {}, guestCookie);
    expect(bad.status).toBe(400);
  });

  it('compares three companies and the CSV holds exactly the table rows', async () => {
    const q = `compare=${others.join(',')}&mode=first_reported`;
    const p = { permaticker: String(permaticker), metric: 'revenue_ttm' };
    const page = await load(browser, `/data-browser/${permaticker}/revenue_ttm?${q}`, p, cookie);
    expect(page.value.result.companies.map((c: { permaticker: number }) => c.permaticker)).toEqual([permaticker, ...others]);
    const csv = await callRoute(browserApi, { path: `/api/v1/data-browser/${permaticker}/revenue_ttm?${q}&format=csv`, params: p });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('Content-Type')).toMatch(/text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines.length - 1).toBe(page.value.result.rows.length);
    const newest = page.value.result.rows.at(-1);
    expect(lines[1].split(',')[0]).toBe(newest.date);
    const newestFilings = page.value.result.filings.at(-1);
    expect(lines[1].split(',').slice(1)).toEqual(
      newest.values.flatMap((v: number | null, k: number) => {
        const f = newestFilings[k];
        return [csvCell(v), csvCell(f?.form ?? null), csvCell(f?.filed ?? null), csvCell(f?.accession ?? null)];
      }),
    );
    // Revenue rests on filings: the newest row names one for the first company.
    expect(newestFilings[0]).toMatchObject({ filed: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });

  it('answers 400 on the page and 422 in the API for bad parameters', async () => {
    const p = { permaticker: String(permaticker), metric: 'pe_ttm' };
    expect((await load(browser, `/data-browser/${permaticker}/pe_ttm?from=2024-13-01`, p, cookie)).status).toBe(400);
    expect((await callRoute(browserApi, { path: `/api/v1/data-browser/${permaticker}/pe_ttm?scale=cubic`, params: p })).status).toBe(422);
    expect((await load(browser, `/data-browser/${permaticker}/not_a_metric`, { ...p, metric: 'not_a_metric' }, cookie)).status).toBe(404);
  });
});

describe('home and JSON endpoints', () => {
  it('home shows a market overview as of a date', async () => {
    const r = await load(home, '/?as_of=2024-06-28', {}, cookie);
    expect(r.value.overview.date).toBe('2024-06-28');
    expect(r.value.overview.sectors.length).toBeGreaterThan(1);
    expect(r.value.overview.benchmark[0].value).toBe(100);
    expect((await load(home, '/?as_of=yesterday', {}, cookie)).status).toBe(400);
  });

  it('every company endpoint answers JSON, CSV and {"detail"} errors', async () => {
    const p = { id: String(permaticker) };
    const endpoints = [
      [companyApi, 'company-overview'],
      [financialsApi, 'financials'],
      [dividendsApi, 'dividends'],
      [valuationApi, 'valuation'],
    ] as const;
    for (const [mod, name] of endpoints) {
      // The pages' "JSON" and "CSV" links carry the session cookie, not a bearer token; the
      // page rule for /company decides: no token is 401, a guest is 403 (guests see only the data browser).
      expect((await callRoute(mod, { path: `/api/v1/${name}/${permaticker}`, params: p })).status).toBe(401);
      const asGuest = await callRoute(mod, { path: `/api/v1/${name}/${permaticker}`, params: p, cookie: guestCookie });
      expect(asGuest.status).toBe(403);
      expect(asGuest.body).toMatchObject({ detail: expect.stringMatching(/data browser/) });
      const json = await callRoute(mod, { path: `/api/v1/${name}/${permaticker}`, params: p, cookie });
      expect(json.status).toBe(200);
      const csv = await callRoute(mod, { path: `/api/v1/${name}/${permaticker}?format=csv`, params: p, cookie });
      expect(csv.headers.get('Content-Type')).toMatch(/text\/csv/);
      expect((await callRoute(mod, { path: `/api/v1/${name}/${permaticker}?as_of=nope`, params: p, cookie })).status).toBe(422);
      const missing = await callRoute(mod, { path: `/api/v1/${name}/NOPE-NOPE`, params: { id: 'NOPE-NOPE' }, cookie });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ detail: expect.any(String) });
    }
    const m = await callRoute(marketApi, { path: '/api/v1/market-overview?format=csv&table=movers', cookie });
    expect(m.text.split('\r\n')[0]).toBe('side,permaticker,ticker,name,price,change_1d');
    expect((await callRoute(marketApi, { path: '/api/v1/market-overview?table=bogus', cookie })).status).toBe(422);
  });
});
