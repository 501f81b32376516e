import type { Locator, Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/fixtures';
import { javaScriptOn } from './support/page-helpers';
import { expect, test } from './support/shared-account';

// The company page's Chart tab with JavaScript on and off (projects js / nojs): adjusted/raw
// basis, volume, comparisons added by ticker and by name (GET form), the messages for what
// cannot be compared, the data table's values against the prices API, the crosshair tooltip
// (JS only), 390 px and the keyboard.

type Hit = { permaticker: number; ticker: string; name: string; is_delisted: boolean };
type Price = { date: string; close: number };

async function listed(page: Page): Promise<Hit[]> {
  const r = await page.request.get('/api/v1/companies?query=&limit=50');
  expect(r.status()).toBe(200);
  const { results } = (await r.json()) as { results: Hit[] };
  const out = results.filter((h) => !h.is_delisted);
  expect(out.length).toBeGreaterThan(3);
  return out;
}

/** The data table: inside <details> that JavaScript closes; opened here when needed. */
async function dataTable(page: Page): Promise<Locator> {
  const details = page.locator('details.chart-data');
  const table = page.getByTestId('price-table');
  // Open on the server; hydration may close it just after a look: retry until it stays open.
  await expect(async () => {
    if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').click();
    await expect(table).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return table;
}

async function cellTexts(table: Locator, column: number): Promise<string[]> {
  return table.locator(`tbody tr > :nth-child(${column})`).allTextContents();
}

const money = (v: number) => `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function apiCloses(page: Page, permaticker: number, from: string, to: string, adjusted: boolean): Promise<Price[]> {
  const r = await page.request.get(`/api/v1/prices/${permaticker}?from=${from}&to=${to}&adjusted=${adjusted}`);
  expect(r.status()).toBe(200);
  return ((await r.json()) as { prices: Price[] }).prices;
}

test('basis switch: raw closes are the prices as traded, adjusted ends on the split-adjusted close; table and volume', async ({ page }) => {
  const [c] = await listed(page);
  await page.goto(`/company/${c.permaticker}/chart?range=1M`);
  await expect(page.getByRole('heading', { name: 'Price chart', level: 2 })).toBeVisible();
  await expect(page.getByTestId('basis-note')).toContainText(/^Adjusted: closes adjusted for splits/);
  await expect(page.getByRole('img', { name: /Volume|volume/ })).toBeVisible();
  let table = await dataTable(page);
  const caption = (await table.locator('caption').textContent()) ?? '';
  const [, from, to] = /(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})/.exec(caption) ?? [];
  expect(from && to).toBeTruthy();
  const adjusted = await apiCloses(page, c.permaticker, from, to, true);
  const dates = await table.locator('tbody th').allTextContents();
  expect(dates).toEqual(adjusted.map((p) => p.date));
  expect((await cellTexts(table, 2)).at(-1)).toBe(money(adjusted[adjusted.length - 1].close));
  await expect(page.getByTestId('sampling-note')).toHaveText(`Daily closes, ${dates.length} trading days.`);

  await page.getByRole('navigation', { name: 'Price basis' }).getByRole('link', { name: 'Raw', exact: true }).click();
  await expect(page).toHaveURL(/basis=raw/);
  await expect(page.getByTestId('basis-note')).toContainText(/^Raw: closes as traded/);
  table = await dataTable(page);
  const raw = await apiCloses(page, c.permaticker, from, to, false);
  expect(await cellTexts(table, 2)).toEqual(raw.map((p) => money(p.close)));
  // Changes carry their sign; volume is a number of shares.
  const changes = await cellTexts(table, 3);
  expect(changes[0]).toBe('n/a');
  for (const ch of changes.slice(1)) expect(ch).toMatch(/^([+-]\d[\d,]*\.\d+%|0(\.0+)?%)$/);
  for (const v of await cellTexts(table, 4)) expect(v).toMatch(/^[\d.,]+[KMB]?$/);
  // The range is still chosen by links, and the table samples long ranges.
  await page.getByRole('navigation', { name: 'Chart range' }).getByRole('link', { name: 'Max' }).click();
  await expect(page).toHaveURL(/range=Max.*basis=raw|basis=raw.*range=Max/);
  await expect(page.getByTestId('sampling-note')).toContainText(/trading days shown (weekly|monthly|quarterly)/);
  table = await dataTable(page);
  expect(await table.locator('tbody tr').count()).toBeLessThanOrEqual(260);
  await expectNoAxeViolations(page);
});

test('two comparisons by ticker and by name; unknown, itself and remove; legend; axe', async ({ page }) => {
  const [c, a, b] = await listed(page);
  await page.goto(`/company/${c.permaticker}/chart?range=1Y`);
  const box = page.getByLabel('Compare with (ticker or name)');
  await box.fill(a.ticker);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`compare=${a.ticker}$`));
  // The page empties the box once the new comparison is shown (with JavaScript, just after the
  // address changes): what a user types next goes into the emptied box.
  await expect(box).toHaveValue('');
  await box.fill(b.name);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`compare=${a.ticker}%2C${b.ticker}$`));
  const compared = page.getByRole('list', { name: 'Compared companies' });
  await expect(compared.getByRole('listitem')).toHaveCount(2);
  const legend = page.getByRole('list', { name: 'Legend' });
  await expect(legend.getByRole('listitem')).toHaveText([`${c.ticker} % change`, `${a.ticker} % change`, `${b.ticker} % change`]);
  const table = await dataTable(page);
  await expect(table.locator('thead th')).toHaveText([
    'Date',
    'Close',
    'Change',
    'Volume',
    `${a.ticker} % since start`,
    `${b.ticker} % since start`,
  ]);
  // Every comparison starts at 0% on the first row of the range.
  expect((await cellTexts(table, 5))[0]).toBe('0.00%');
  expect((await cellTexts(table, 6))[0]).toBe('0.00%');

  // What cannot be compared is said beside the form; the chart stays.
  await expect(box).toHaveValue('');
  await box.fill('ZZZ-NOT-A-COMPANY');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByTestId('compare-messages')).toContainText('No company matches “ZZZ-NOT-A-COMPANY”');
  await expect(page.locator('figure.chart svg[role="img"]').first()).toBeVisible();
  await expect(compared.getByRole('listitem')).toHaveCount(2);
  await page.goto(`/company/${c.permaticker}/chart?range=1Y&compare=${c.ticker},,,,${a.ticker},${a.ticker.toLowerCase()}`);
  await expect(page.getByTestId('compare-messages')).toContainText(`is ${c.ticker} itself`);
  await expect(page.getByRole('list', { name: 'Compared companies' }).getByRole('listitem')).toHaveCount(1);

  await page.goto(`/company/${c.permaticker}/chart?range=1Y&compare=${a.ticker},${b.ticker}`);
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: `Remove ${a.ticker} from the comparison` }).click();
  await expect(page).toHaveURL(new RegExp(`compare=${b.ticker}$`));
  await expect(page.getByRole('list', { name: 'Compared companies' }).getByRole('listitem')).toHaveCount(1);
});

test('a 6th comparison is refused with a message', async ({ page }) => {
  const [c, ...others] = await listed(page);
  const five = others.slice(0, 5).map((h) => h.ticker);
  await page.goto(`/company/${c.permaticker}/chart?range=6M&compare=${five.join(',')}`);
  await expect(page.getByRole('list', { name: 'Compared companies' }).getByRole('listitem')).toHaveCount(5);
  await page.getByLabel('Compare with (ticker or name)').fill(others[5].ticker);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByTestId('compare-messages')).toContainText(`Up to 5 comparisons: one more was left out (${others[5].ticker})`);
  await expect(page.getByRole('list', { name: 'Compared companies' }).getByRole('listitem')).toHaveCount(5);
});

test('crosshair tooltip with JavaScript: date, every line and the volume', async ({ page }) => {
  test.skip(!javaScriptOn(), 'the tooltip needs JavaScript; without it the data table is the same information');
  const [c, a] = await listed(page);
  await page.goto(`/company/${c.permaticker}/chart?range=6M&compare=${a.ticker}`);
  const canvas = page.locator('.chart__canvas').first();
  await expect(canvas.locator('svg')).toBeVisible();
  await canvas.scrollIntoViewIfNeeded();
  const tip = page.locator('.chart-tooltip__list');
  // The chart becomes interactive once hydrated (and redrawn at its width): hover until it answers.
  await expect(async () => {
    const box = await canvas.boundingBox();
    if (!box) throw new Error('no chart box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 2 + 3, box.y + box.height / 2 + 3);
    await expect(tip).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(tip).toContainText(`${c.ticker} % change`);
  await expect(tip).toContainText(`${a.ticker} % change`);
  await expect(tip).toContainText(`${c.ticker} close: $`);
  await expect(tip).toContainText('Volume:');
  await expect(tip.locator('..').locator('strong')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
});

test('390 px: no page-wide sideways scroll; the table scrolls in its own region', async ({ page }) => {
  const [c, a, b] = await listed(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/company/${c.permaticker}/chart?range=1Y&compare=${a.ticker},${b.ticker}`);
  await dataTable(page);
  // Once the page has settled (with JavaScript the live chart takes the server's picture's place).
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
    .toBeLessThanOrEqual(0);
  // Open again if hydration closed it after the first look (on a loaded machine it can come that late).
  await dataTable(page);
  await expect(page.getByRole('region', { name: 'Price data table' })).toHaveAttribute('tabindex', '0');
});

test('keyboard only: add a comparison, open and reach the data table', async ({ page }) => {
  const [c, a] = await listed(page);
  await page.goto(`/company/${c.permaticker}/chart?range=1M`);
  const box = page.getByLabel('Compare with (ticker or name)');
  for (let i = 0; i < 60 && !(await box.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
  await page.keyboard.type(a.ticker);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`compare=${a.ticker}$`));
  await expect(page.getByRole('list', { name: 'Compared companies' }).getByRole('listitem')).toHaveCount(1);
  const region = page.getByRole('region', { name: 'Price data table' });
  const summary = page.locator('details.chart-data summary');
  const target = javaScriptOn() ? summary : region;
  await page.locator('#chart-add').focus();
  for (let i = 0; i < 40 && !(await target.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(target).toBeFocused();
  if (javaScriptOn()) {
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(region).toBeFocused();
  }
  await expect(region.getByRole('columnheader', { name: `${a.ticker} % since start` })).toBeVisible();
});
