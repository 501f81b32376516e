import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { e2eAppEnv } from './support/app-state';
import { E2E_APP_PORT } from './support/env';
import { expectNoAxeViolations } from './support/fixtures';
import { expect, test } from './support/shared-account';

// Company pages with JavaScript on and off (projects js / nojs), signed in with an account that
// has access: search → company, the five tabs, as-of dates, filings, keyboard only, axe, and the
// 503 page of a second app instance whose market file is garbage.

type Hit = { permaticker: number; ticker: string; name: string; is_demo: boolean };

async function someCompany(page: Page): Promise<Hit> {
  // The oldest listed companies have the longest history (demo universe of e2e-start).
  const r = await page.request.get('/api/v1/companies?query=&limit=50');
  expect(r.status()).toBe(200);
  const { results } = (await r.json()) as { results: (Hit & { is_delisted: boolean })[] };
  const listed = results.filter((h) => !h.is_delisted);
  for (const h of listed) {
    const o = await page.request.get(`/api/v1/company-overview/${h.permaticker}?as_of=2022-06-30`);
    const body = (await o.json()) as { date: string | null; filings: unknown[] };
    if (body.date && body.filings.length > 0) return h;
  }
  throw new Error('no listed company with history before 2022-06-30 in the demo data');
}

async function searchFor(page: Page, text: string): Promise<void> {
  await page.goto('/company');
  await expect(page.getByRole('heading', { name: 'Companies', level: 1 })).toBeVisible();
  await page.getByLabel('Ticker or company name').fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).last().click();
  await expect(page).toHaveURL(new RegExp(`/company\\?query=${text}`));
}

test('open a company from search: overview, axe', async ({ page }) => {
  const c = await someCompany(page);
  await searchFor(page, c.ticker);
  await expectNoAxeViolations(page);
  await page.getByRole('table').getByRole('link', { name: c.ticker, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/company/${c.permaticker}/overview$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(c.name);
  if (c.is_demo) await expect(page.locator('h1 .badge--demo')).toHaveText('demo');
  await expect(page.getByTestId('as-of')).toContainText('latest');
  await expect(page.getByTestId('last-price')).toHaveText(/^\$\d/);
  await expect(page.getByTestId('watchlist-slot')).toBeVisible();
  // Key statistics in a compact grid, grouped the way stock sites group them.
  const stats = page.getByRole('region', { name: 'Key statistics' });
  for (const group of ['Valuation', 'Growth', 'Profitability', 'Financial health', 'Dividends', 'Trading']) {
    await expect(stats.getByRole('heading', { name: group, level: 4 })).toBeVisible();
  }
  await expect(stats.getByTestId('stat-market_cap').locator('dd')).toHaveText(/^\$\d/);
  await expect(stats.getByTestId('stat-pe_ttm').locator('dt')).toHaveText('P/E (TTM)');
  await expect(page.getByTestId('range-52w')).toContainText(/52-week range: \$\d.* – \$\d/);
  // Peers: other companies of the same industry (or sector), each linking to its own overview.
  await expect(page.getByTestId('peers-basis')).toContainText(
    /Largest companies of the same (industry|sector): .+, as of \d{4}-\d{2}-\d{2}/,
  );
  const peers = page.getByRole('region', { name: 'Peers table' }).getByTestId('peer-row');
  expect(await peers.count()).toBeGreaterThan(0);
  const peerLink = peers.first().getByRole('link');
  await expect(peerLink).toHaveAttribute('href', /^\/company\/\d+\/overview$/);
  expect(await peerLink.getAttribute('href')).not.toBe(`/company/${c.permaticker}/overview`);
  await expect(peers.first().locator('td').nth(1)).toHaveText(/^\$\d/);
  await expectNoAxeViolations(page);
  const peerTicker = (await peerLink.textContent()) ?? '';
  await peerLink.click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(peerTicker);
});

for (const [tab, heading] of [
  ['Chart', 'Price chart'],
  ['Financials', 'Financials'],
  ['Dividends', 'Dividends'],
  ['Valuation', 'Valuation'],
] as const) {
  test(`the ${tab} tab, reached by its link, axe`, async ({ page }) => {
    test.setTimeout(150_000);
    const c = await someCompany(page);
    await page.goto(`/company/${c.permaticker}/overview`);
    await page.getByRole('navigation', { name: 'Company sections' }).getByRole('link', { name: tab }).click();
    await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Company sections' }).getByRole('link', { name: tab })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // Every chart is an SVG rendered by the server, named, with its table.
    const charts = page.locator('figure.chart svg[role="img"]');
    if ((await charts.count()) > 0) await expect(charts.first()).toHaveAttribute('aria-label', /.+/);
    await expectNoAxeViolations(page);
  });
}

test('a chart is the server-drawn SVG until the page hydrates, then the live chart, without hydration errors', async ({ page }) => {
  // The server inserts a chart's cached static SVG as markup (ui/charts/server-svg.tsx); the
  // browser keeps it while hydrating and puts the interactive nivo chart in its place afterwards.
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  const c = await someCompany(page);
  const html = await (await page.request.get(`/company/${c.permaticker}/valuation`)).text();
  expect(html).toMatch(/<div class="chart__svg">(<div[^>]*>)?<svg[^>]*role="img"/);
  await page.goto(`/company/${c.permaticker}/valuation`);
  const chart = page.locator('figure.chart svg[role="img"]').first();
  await expect(chart).toHaveAttribute('aria-label', /.+/);
  if (test.info().project.use.javaScriptEnabled !== false) {
    // Hydrated: the live chart replaced the server's markup and answers the pointer.
    await expect(page.locator('figure.chart .chart__svg')).toHaveCount(0);
    await chart.hover();
    await expect(page.locator('.chart-tooltip__list').first()).toBeVisible();
    expect(consoleErrors).toEqual([]);
  } else {
    await expect(page.locator('figure.chart .chart__svg').first()).toBeVisible();
  }
});

test('chart ranges and options are links; financial periods and statements', async ({ page }) => {
  const c = await someCompany(page);
  await page.goto(`/company/${c.permaticker}/chart`);
  await page.getByRole('navigation', { name: 'Chart range' }).getByRole('link', { name: '5Y' }).click();
  await expect(page).toHaveURL(/range=5Y/);
  await expect(page.getByRole('navigation', { name: 'Chart range' }).getByRole('link', { name: '5Y' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.getByRole('navigation', { name: 'Price basis' }).getByRole('link', { name: 'Raw' }).click();
  await expect(page).toHaveURL(/basis=raw/);
  await expect(page.getByRole('link', { name: 'Raw', exact: true })).toHaveAttribute('aria-current', 'true');
  await page.getByRole('button', { name: 'Moving averages (50, 200)' }).click();
  await expect(page).toHaveURL(/ma=1/);
  await expect(page.locator('figure.chart svg[role="img"]').first()).toHaveAttribute('aria-label', /raw \(as traded\).*5Y/);
  await page.goto(`/company/${c.permaticker}/financial?period=quarterly&statement=income`);
  await expect(page.getByRole('table').first()).toContainText('Revenue');
  await page.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: 'TTM' }).click();
  await expect(page.locator('#statement-caption')).toContainText('TTM');
  await page.getByRole('navigation', { name: 'Statement' }).getByRole('link', { name: 'Balance sheet' }).click();
  await expect(page.locator('#statement-caption')).toContainText('Balance sheet');
  await expectNoAxeViolations(page);
});

test('changing the as-of date shows older numbers and only filings known then', async ({ page }) => {
  const c = await someCompany(page);
  await page.goto(`/company/${c.permaticker}/overview`);
  const latestFiling = await page.locator('table').last().locator('tbody tr').first().locator('td').nth(1).textContent();
  await page.getByLabel('As of date').fill('2022-06-30');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/as_of=2022-06-30/);
  await expect(page.getByTestId('as-of')).toContainText('2022-06-');
  // Without JavaScript the address changes while the new page is still being parsed: wait for the
  // filings table (the last thing on the page) before reading it.
  const filedCells = page.getByRole('table', { name: 'Latest filings' }).locator('tbody td:nth-child(2)');
  await expect(filedCells.first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'CSV (filings)' })).toBeVisible();
  const filed = await filedCells.allTextContents();
  expect(filed.length).toBeGreaterThan(0);
  for (const d of filed) expect(d < '2022-06-30').toBe(true);
  expect(latestFiling! > filed[0]).toBe(true);
  // The as-of date follows the tabs.
  await page.getByRole('navigation', { name: 'Company sections' }).getByRole('link', { name: 'Financials' }).click();
  await expect(page).toHaveURL(/financial\?as_of=2022-06-30/);
  // With JavaScript the address changes before the new section is rendered: wait for its table.
  // Without it the table may still be arriving when its first cell shows (a CI run read a cell cut
  // off mid-date): wait for the page's footer, the last thing parsed, before reading every cell.
  const cells = page.locator('table.statement tbody td small');
  await expect(cells.first()).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  const cellDates = await cells.allTextContents();
  expect(cellDates.length).toBeGreaterThan(0);
  for (const t of cellDates) expect(t.match(/\d{4}-\d{2}-\d{2}/)![0] < '2022-06-30').toBe(true);
});

test('a bad as-of date is a 400 with a message, not a 500', async ({ page }) => {
  const c = await someCompany(page);
  const response = await page.goto(`/company/${c.permaticker}/valuation?as_of=2022-02-30`);
  expect(response?.status()).toBe(400);
  await expect(page.getByRole('heading', { name: 'Invalid as-of date' })).toBeVisible();
  await expect(page.locator('#as-of-error')).toContainText('YYYY-MM-DD');
  await expectNoAxeViolations(page);
});

test('an unknown company is the 404 page, inside the layout with its navigation', async ({ page }) => {
  const response = await page.goto('/company/NO-SUCH-CO/overview');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  expect((await page.goto('/company/999999/valuation'))?.status()).toBe(404);
  await expect(page.getByText('Unknown company: 999999')).toBeVisible();
  expect((await page.goto('/company/999999'))?.status()).toBe(404);
  await expect(page).toHaveTitle(/^Page Not Found/);
  await expect(page.getByRole('heading', { name: 'Page Not Found', level: 1 })).toBeVisible();
  await expect(page.getByText('Unknown company: 999999')).toBeVisible();
  // The way on: the main navigation, the search and the account menu are all there.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Screener', exact: true })).toBeVisible();
  await expect(page.getByRole('search')).toBeVisible();
  await expect(page.getByRole('link', { name: /Profile of/ })).toHaveCount(1);
  await expectNoAxeViolations(page);
});

test('every tab adds the company to a watchlist and removes it again, staying on the tab', async ({ page }) => {
  const c = await someCompany(page);
  for (const tab of ['dividend', 'financial'] as const) {
    await page.goto(`/company/${c.permaticker}/${tab}?as_of=2023-06-30`);
    const box = page.getByRole('region', { name: 'Watchlists' });
    await box.getByRole('button', { name: `Add ${c.ticker} to My watchlist` }).click();
    await expect(box.getByRole('button', { name: `Remove ${c.ticker} from My watchlist` })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/company/${c.permaticker}/${tab}\\?as_of=2023-06-30$`));
    await expect(box.getByRole('link', { name: 'My watchlist' })).toBeVisible();
    // The watchlist page lists it.
    await page.goto('/watchlist');
    await expect(page.getByTestId('watchlist-table')).toContainText(c.ticker);
    await page.goto(`/company/${c.permaticker}/${tab}?as_of=2023-06-30`);
    await box.getByRole('button', { name: `Remove ${c.ticker} from My watchlist` }).click();
    await expect(box.getByRole('button', { name: `Add ${c.ticker} to My watchlist` })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/company/${c.permaticker}/${tab}\\?as_of=2023-06-30$`));
  }
  await expect(page.getByText('will be available here')).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('the as-of form keeps the open tab; a ticker in the address marks its tab', async ({ page }) => {
  const c = await someCompany(page);
  await page.goto(`/company/${c.ticker}/dividend`);
  const tabs = page.getByRole('navigation', { name: 'Company sections' });
  await expect(tabs.getByRole('link', { name: 'Dividends' })).toHaveAttribute('aria-current', 'page');
  await expect(tabs.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current', 'page');
  await page.getByLabel('As of date').fill('2022-06-30');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`/company/${c.ticker}/dividend\\?as_of=2022-06-30$`));
  await expect(page.getByRole('heading', { name: 'Dividends', level: 2 })).toBeVisible();
  await expect(tabs.getByRole('link', { name: 'Dividends' })).toHaveAttribute('aria-current', 'page');
});

test('filings: demo accessions are fictional, so they are listed without SEC links', async ({ page }) => {
  const c = await someCompany(page);
  await page.goto(`/company/${c.permaticker}/overview`);
  const rows = page.locator('table').last().locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(0);
  const accession = (await rows.first().locator('td').nth(3).textContent())!.trim();
  expect(accession).toMatch(/^\d{10}-\d{2}-\d{6}$/);
  const secLinks = page.locator('a[href^="https://www.sec.gov/Archives/edgar/data/"]');
  if (c.is_demo) {
    await expect(page.getByText('accession numbers are fictional')).toBeVisible();
    await expect(secLinks).toHaveCount(0);
  } else {
    // Real data: the link is the archive folder named by the accession without dashes.
    await expect(secLinks.first()).toHaveAttribute('href', new RegExp(`/${accession.replaceAll('-', '')}/$`));
  }
});

test('keyboard only: header search → company → data browser', async ({ page }) => {
  const c = await someCompany(page);
  await page.goto('/');
  const search = page.getByLabel('Search companies by ticker or name');
  for (let i = 0; i < 30 && !(await search.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(search).toBeFocused();
  await page.keyboard.type(c.ticker);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/company\?query=/);
  const result = page.getByRole('table').getByRole('link', { name: c.ticker, exact: true });
  for (let i = 0; i < 60 && !(await result.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(result).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/company/${c.permaticker}/overview`));
  const toBrowser = page.getByRole('link', { name: 'Price in the data browser' });
  for (let i = 0; i < 80 && !(await toBrowser.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(toBrowser).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/data-browser/${c.permaticker}/price`));
  await expect(page.getByTestId('history-table')).toBeVisible();
});

test.describe('with a corrupt market file', () => {
  let child: ChildProcess | null = null;
  let dir = '';
  const port = E2E_APP_PORT + 9;
  const origin = `http://127.0.0.1:${port}`;

  test.beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-corrupt-'));
    const garbage = path.join(dir, 'market.duckdb');
    writeFileSync(garbage, Buffer.from('this is not a DuckDB file at all, just garbage bytes \u0000\u0001\u0002'.repeat(200)));
    const env = {
      ...e2eAppEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: origin,
      // Same secret as the main instance, so the signed-in cookie works here too.
      SESSION_SECRET: process.env.E2E_SESSION_SECRET ?? 'quarry-e2e-session-secret-not-a-secret',
      MARKET_DB: garbage,
      QUARRY_SKIP_DEMO: '1',
    };
    child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: 'ignore' });
    for (let i = 0; i < 120; i++) {
      try {
        if ((await fetch(`${origin}/login`)).ok) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('second app instance did not start');
  });

  test.afterAll(() => {
    if (child?.pid) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  test('a company page answers 503 "market data unavailable" on the error page, without the file path', async ({ page }) => {
    const response = await page.goto(`${origin}/company/1/overview`);
    expect(response?.status()).toBe(503);
    await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('Market data unavailable');
    await expect(page.locator('body')).not.toContainText(dir);
  });
});

test('suggestions as you type with JavaScript; the results list without it', async ({ page }) => {
  const c = await someCompany(page);
  await page.goto('/company');
  await page.getByLabel('Ticker or company name').pressSequentially(c.ticker, { delay: 30 });
  if (test.info().project.use.javaScriptEnabled === false) {
    // Nothing happens until the form is sent; then the server lists the results.
    await expect(page.getByRole('heading', { name: 'Suggestions' })).toHaveCount(0);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('table').getByRole('link', { name: c.ticker, exact: true })).toBeVisible();
  } else {
    await expect(page.getByRole('heading', { name: 'Suggestions' })).toBeVisible();
    await page
      .locator('.suggestions')
      .getByRole('link', { name: new RegExp(`^${c.ticker} `) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/company/${c.permaticker}/overview$`));
  }
});

test('home: market overview as of a date, links into the screener and data browser, axe', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Markets', level: 1 })).toBeVisible();
  await expect(page.getByTestId('as-of')).toContainText('Market as of');
  await expect(page.getByRole('heading', { name: /Benchmark: equal-weighted universe/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sector performance (median total return)' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Screen stocks' })).toHaveAttribute('href', '/screener');
  await expect(page.getByRole('main').getByRole('link', { name: 'Browse any metric' })).toHaveAttribute('href', '/data-browser');
  await expectNoAxeViolations(page);
  await page.getByLabel('As of date').fill('2023-03-15');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/as_of=2023-03-15/);
  await expect(page.getByTestId('as-of')).toContainText('2023-03-15');
  // Read the filings once the page of that date shows them (not the one it replaced).
  const filedCells = page
    .locator('section', { has: page.getByRole('heading', { name: 'Most recent filings' }) })
    .locator('tbody td:nth-child(3)');
  await expect(filedCells.first()).toBeVisible();
  // Without JavaScript the rest of the page may still be arriving: the footer comes last.
  await expect(page.getByRole('contentinfo')).toBeVisible();
  const filed = await filedCells.allTextContents();
  expect(filed.length).toBeGreaterThan(0);
  for (const t of filed) expect(t.match(/\d{4}-\d{2}-\d{2}/)![0] < '2023-03-15').toBe(true);
});
