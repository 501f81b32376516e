import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { getMetric } from '../../app/services/metrics/catalogue';
import { formatMetricValue } from '../../app/services/metrics/format';
import { expect, expectNoAxeViolations, test } from './support/fixtures';

// The data browser as a guest (guests may use it), JavaScript on and off: pick a
// company and a metric, compare three companies, switch scale and values, download the CSV and
// check it against the table, axe on every page.

type Hit = { permaticker: number; ticker: string; name: string; is_delisted: boolean };

async function companies(page: Page, n: number): Promise<Hit[]> {
  // Company search is the company pages' (guests may not use it): the test looks companies up
  // with a new account's token, then browses as the guest.
  const password = 'correct horse battery staple';
  const email = `browser-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const signup = await page.request.post('/api/v2/auth/signup', {
    data: { email, full_name: 'Data Browser Lookup', password, password_confirmation: password },
  });
  expect(signup.status()).toBe(201);
  const { access_token } = (await signup.json()) as { access_token: string };
  const r = await page.request.get('/api/v1/companies?query=&limit=20', { headers: { Authorization: `bearer ${access_token}` } });
  const { results } = (await r.json()) as { results: Hit[] };
  const listed = results.filter((h) => !h.is_delisted).slice(0, n);
  expect(listed).toHaveLength(n);
  return listed;
}

test.use({ storageState: { cookies: [], origins: [] } });
// axe over a page of long tables takes a while; the default 60 s is for simple pages.
test.setTimeout(150_000);

test('a guest picks a company and a metric and lands on the stable URL', async ({ page }) => {
  const [c] = await companies(page, 1);
  await page.goto('/data-browser');
  await expect(page.getByRole('heading', { name: 'Data browser', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Valuation', level: 3 })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel('Company (ticker, name or permaticker)').fill(c.ticker);
  await page.getByLabel('Metric', { exact: true }).selectOption('pe_ttm');
  await page.getByRole('button', { name: 'Show history' }).click();
  await expect(page).toHaveURL(new RegExp(`/data-browser/${c.permaticker}/pe_ttm$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`P/E (TTM) · ${c.ticker}`);
  await expect(page.locator('figure.chart svg[role="img"]')).toHaveAttribute('aria-label', /P\/E/);
  await expectNoAxeViolations(page);
});

test('an unknown company in the pick form is a 400 with a message', async ({ page }) => {
  const response = await page.goto('/data-browser?company=NO-SUCH-CO&metric=pe_ttm');
  expect(response?.status()).toBe(400);
  await expect(page.getByRole('alert')).toContainText('NO-SUCH-CO');
});

test('compare three companies, switch scale and values, and download exactly the table as CSV', async ({ page }) => {
  const [a, b, c] = await companies(page, 3);
  await page.goto(`/data-browser/${a.permaticker}/revenue_ttm`);
  for (const [i, other] of [b, c].entries()) {
    await page.getByLabel('Add company (ticker, name or permaticker)').fill(other.ticker);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByRole('heading', { name: `Companies (${i + 2} of 10)` })).toBeVisible();
  }
  await expect(page).toHaveURL(new RegExp(`compare=${b.permaticker}%2C${c.permaticker}`));
  const header = await page.getByTestId('history-table').locator('thead th').allTextContents();
  expect(header).toEqual(['Date', ...[a, b, c].flatMap((x) => [x.ticker, `${x.ticker} filing`])]);
  // Several lines: a legend names each one.
  await expect(page.getByRole('list', { name: 'Legend' }).getByRole('listitem')).toHaveText([
    new RegExp(`^\\s*${a.ticker}`),
    new RegExp(`^\\s*${b.ticker}`),
    new RegExp(`^\\s*${c.ticker}`),
  ]);

  await page.getByLabel('Log').check();
  await page.getByLabel('As first reported').check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/scale=log/);
  await expect(page).toHaveURL(/mode=first_reported/);
  await expect(page.getByTestId('as-of')).toContainText('As first reported');
  await expectNoAxeViolations(page);

  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('csv-link').click();
  const download = await downloadPromise;
  const csv = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
  expect(csv[0]).toBe(
    [
      'date',
      ...[a, b, c].flatMap((x) => [`${x.ticker} (${x.permaticker})`, `${x.ticker} form`, `${x.ticker} filed`, `${x.ticker} accession`]),
    ].join(','),
  );

  const rows = page.getByTestId('history-table').locator('tbody tr');
  const count = await rows.count();
  expect(csv.length - 1).toBe(count);
  const metric = getMetric('revenue_ttm')!;
  for (const k of [0, 1, Math.floor(count / 2), count - 1]) {
    const cells = await rows.nth(k).locator('th, td').allTextContents();
    const fields = csv[k + 1].split(',');
    expect(fields[0]).toBe(cells[0]);
    for (let i = 0; i < 3; i++) {
      const [value, form, filed] = fields.slice(1 + 4 * i, 4 + 4 * i);
      expect(formatMetricValue(metric, value === 'n/a' ? null : Number(value))).toBe(cells[1 + 2 * i]);
      expect(cells[2 + 2 * i]).toEqual(
        filed === 'n/a' ? '—' : expect.stringMatching(new RegExp(`^${form === 'n/a' ? '' : `${form} `}filed ${filed}`)),
      );
    }
  }

  // Remove one company again by its link.
  await page.getByRole('link', { name: `Remove ${b.ticker} from the comparison` }).click();
  await expect(page.getByTestId('history-table').locator('thead th')).toHaveText([
    'Date',
    a.ticker,
    `${a.ticker} filing`,
    c.ticker,
    `${c.ticker} filing`,
  ]);
});

test('each value names the filing it comes from; values resting on prices alone name none', async ({ page }) => {
  const [a] = await companies(page, 1);
  await page.goto(`/data-browser/${a.permaticker}/revenue_ttm`);
  await expect(page.getByTestId('history-table').locator('thead th')).toHaveText(['Date', a.ticker, 'Filing']);
  const filings = page.getByTestId('value-filing');
  expect(await filings.count()).toBeGreaterThan(1);
  // The newest value comes from a filing known by its form and filed date (demo filings: no SEC link).
  await expect(filings.first()).toHaveText(/^\S+ filed \d{4}-\d{2}-\d{2}/);
  await expectNoAxeViolations(page);

  await page.goto(`/data-browser/${a.permaticker}/price`);
  await expect(page.getByTestId('history-table').locator('thead th')).toHaveText(['Date', a.ticker, 'Filing']);
  await expect(page.getByTestId('value-filing').first()).toHaveText('—');
  await expect(page.getByTestId('value-filing').last()).toHaveText('—');
});

test('"Add company" finds a company by its name; a name that matches nothing keeps the view with the reason', async ({ page }) => {
  const [a, b] = await companies(page, 2);
  await page.goto(`/data-browser/${a.permaticker}/revenue_ttm`);
  await page.getByLabel('Add company (ticker, name or permaticker)').fill(b.name);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Companies (2 of 10)' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`compare=${b.permaticker}$`));

  const response = await page.goto(`/data-browser/${a.permaticker}/revenue_ttm?compare=${b.permaticker}&add=Zzqxv%20Nothing`);
  expect(response?.status()).toBe(400);
  // Not an error page: the chart, the table and both companies are still there, the reason by the box.
  await expect(page.getByRole('heading', { name: 'Companies (2 of 10)' })).toBeVisible();
  await expect(page.getByTestId('history-table')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('No company matches “Zzqxv Nothing”');
  await expect(page.getByLabel('Add company (ticker, name or permaticker)')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
});

test('bad parameters are a 400 page with the reason', async ({ page }) => {
  const [a] = await companies(page, 1);
  const response = await page.goto(`/data-browser/${a.permaticker}/pe_ttm?from=2024-02-30`);
  expect(response?.status()).toBe(400);
  await expect(page.getByRole('heading', { name: 'Invalid parameters' })).toBeVisible();
  await expectNoAxeViolations(page);
});
