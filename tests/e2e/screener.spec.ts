import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { acknowledgeInfo, control, modal } from './support/page-helpers';
import { expect, test } from './support/shared-account';
import { expectNoAxeViolations } from './support/fixtures';

// The screener with JavaScript on and off (projects js / nojs) on the e2e demo universe: build a
// screen of four rule kinds with the builder buttons, see results, sort, explain a row, save it
// (prompt), rename (prompt), duplicate, delete (confirm); and the same building and saving by
// keyboard alone.

async function addRule(page: Page, fields: Record<string, string>, button: string): Promise<void> {
  const rules = page.locator('input[name="r"]');
  const before = await rules.count();
  for (const [label, value] of Object.entries(fields)) {
    const input = page.locator(label);
    if ((await input.evaluate((el) => el.tagName)) === 'SELECT') await input.selectOption(value);
    else await input.fill(value);
  }
  await page.getByRole('button', { name: button, exact: true }).click();
  // Wait for the new page (with JavaScript the form is replaced after a client navigation).
  await expect(rules).toHaveCount(before + 1);
}

function results(page: Page): Locator {
  return page.getByTestId('screener-results');
}

async function tabTo(page: Page, target: Locator, max = 400): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('could not reach the element with Tab');
}

test('build a four-rule screen, sort, explain, save, rename, duplicate and delete', async ({ page }) => {
  // A long flow of about twenty page loads: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  await page.goto('/screener');
  await expect(page.getByRole('heading', { name: 'Stock screener' })).toBeVisible();
  await addRule(page, { '#add-metric': 'market_cap', '#add-op': '>', '#add-value': '0' }, 'Add value rule');
  await addRule(page, { '#cmp-left': 'price', '#cmp-op': '>', '#cmp-factor': '0.5', '#cmp-right': 'sma200' }, 'Add comparison');
  await addRule(page, { '#rank-metric': 'ret_12m', '#rank-side': 'top', '#rank-pct': '80', '#rank-within': 'sector' }, 'Add rank rule');
  await addRule(page, { '#expr-text': '(price - sma50) / sma50 > -0.5' }, 'Add expression rule');
  await expect(page.getByLabel('Rule 1', { exact: true })).toHaveValue('market_cap > 0');
  await expect(page.getByLabel('Rule 2', { exact: true })).toHaveValue('price > 0.5 * sma200');
  await expect(page.getByLabel('Rule 3', { exact: true })).toHaveValue('ret_12m in top 80% of sector');
  await expect(page.getByLabel('Rule 4', { exact: true })).toHaveValue('(price - sma50) / sma50 > -0.5');
  await expect(page).toHaveURL(/r=ret_12m\+in\+top\+80%25\+of\+sector/);

  const count = Number((await page.getByTestId('screener-count').locator('strong').innerText()).trim());
  expect(count).toBeGreaterThan(0);
  await expect(results(page).locator('tbody tr')).toHaveCount(Math.min(count, 50));
  await expectNoAxeViolations(page);

  // Sort by price, descending (first click on a numeric column).
  await results(page)
    .getByRole('link', { name: /^Price\s*, sort descending/ })
    .click();
  await expect(results(page).getByRole('columnheader', { name: /^Price\b/ })).toHaveAttribute('aria-sort', 'descending');
  const headers = (await results(page).locator('thead th').allInnerTexts()).map((t) => t.trim());
  const column = headers.findIndex((t) => t.startsWith('Price'));
  expect(column).toBeGreaterThan(0);
  const prices = await results(page)
    .locator(`tbody tr > :nth-child(${column + 1})`)
    .allInnerTexts();
  const numbers = prices.map((t) => Number(t.replace(/[$,]/g, '')));
  expect(numbers.length).toBeGreaterThan(1);
  expect(numbers.every((n) => Number.isFinite(n))).toBe(true);
  expect(numbers).toEqual([...numbers].sort((a, b) => b - a));

  // Explain the first row.
  const firstTicker = (await results(page).locator('tbody tr').first().getByRole('rowheader').innerText()).trim();
  await results(page)
    .getByRole('link', { name: `Explain ${firstTicker}`, exact: true })
    .click();
  const why = page.getByRole('region', { name: `Why ${firstTicker} is in` });
  await expect(why).toBeVisible();
  await expect(why.getByRole('row')).toHaveCount(1 + 1 + 4);

  // Save through the prompt.
  const name = `Trend ${Date.now()}`;
  await page.getByRole('link', { name: 'Save screen…' }).click();
  const prompt = modal(page, 'Save screen');
  await expect(prompt).toBeVisible();
  await prompt.getByLabel('Name').fill(name);
  await control(prompt, 'OK').click();
  await acknowledgeInfo(page, 'Screen saved', name);
  await expect(page.getByRole('link', { name: 'Backtest this screen' })).toHaveAttribute('href', /\/backtest\?screener_id=/);

  // Manage: rename, duplicate, delete.
  await page.goto('/screener/manage');
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(String(count));
  await row.getByRole('link', { name: `Rename ${name}` }).click();
  const rename = modal(page, 'Rename screener');
  await rename.getByLabel('Name').fill(`${name} renamed`);
  await control(rename, 'OK').click();
  await acknowledgeInfo(page, 'Renamed');
  await page.getByRole('button', { name: `Duplicate ${name} renamed`, exact: true }).click();
  await acknowledgeInfo(page, 'Duplicated');
  await expect(page.getByRole('rowheader', { name: `${name} renamed (copy)` })).toBeVisible();
  await page.getByRole('link', { name: `Delete ${name} renamed (copy)` }).click();
  const confirm = modal(page, 'Delete screener?');
  await control(confirm, 'Delete screener').click();
  await acknowledgeInfo(page, 'Deleted');
  await expect(page.getByRole('rowheader', { name: `${name} renamed (copy)` })).toHaveCount(0);
  await expect(page.getByRole('rowheader', { name: `${name} renamed`, exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('a bad rule says what to fix and keeps the universe lists', async ({ page }) => {
  await page.goto('/screener?r=(revnue_ttm+-+1)+%3E+2');
  await expect(page.getByRole('alert')).toContainText('Rule 1: “revnue_ttm” is not a metric. Did you mean revenue_ttm (Revenue (TTM))?');
  await expect(page.getByRole('alert')).not.toContainText('column');
  await expect(page.getByLabel('Rule 1', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  // The exchange, sector and industry lists keep their choices while the rule is wrong.
  for (const list of ['Exchanges (none = all)', 'Sectors (none = all)', 'Industries (none = all)'])
    expect(await page.getByLabel(list).locator('option').count()).toBeGreaterThan(0);
});

test('numbers take 1B, 300M and 5%; metrics their label', async ({ page }) => {
  await page.goto('/screener?r=market_cap+%3E+1B&mcap_min=300M');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByTestId('screener-count')).toBeVisible();
  await page.goto('/screener');
  await addRule(page, { '#add-metric': 'Market cap', '#add-op': '>', '#add-value': '300M' }, 'Add value rule');
  await expect(page.getByLabel('Rule 1', { exact: true })).toHaveValue('market_cap > 300000000');
  await addRule(page, { '#add-metric': 'ret_12m', '#add-op': '>', '#add-value': '-95%' }, 'Add value rule');
  await expect(page.getByLabel('Rule 2', { exact: true })).toHaveValue('ret_12m > -0.95');
  await expect(page).toHaveURL(/r=market_cap\+%3E\+300000000/);
  // The metric fields suggest labels (a datalist, no JavaScript needed).
  await expect(page.locator('#screener-metrics option[value="Market cap"]')).toHaveCount(1);
});

test('CSV holds every result at the page precision; page sizes', async ({ page }) => {
  await page.goto('/screener?r=market_cap+%3E+0&col=ret_12m&col=pe_ttm&size=25');
  const count = Number((await page.getByTestId('screener-count').locator('strong').innerText()).trim());
  expect(count).toBeGreaterThan(25);
  await expect(results(page).locator('tbody tr')).toHaveCount(25);
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: /^Download CSV/ }).click();
  const csv = readFileSync(await (await downloading).path(), 'utf8');
  const lines = csv.split('\r\n').filter((l) => l !== '');
  expect(lines.length - 1).toBe(count);
  expect(lines[0]).toContain('Return (12 months) (%)');
  // Every number is written as the page shows it: at most two decimals, no float noise.
  for (const line of lines.slice(1)) {
    for (const cell of line.split(',').slice(-3)) expect(cell).toMatch(/^(n\/a|-?\d+(\.\d{1,2})?)$/);
  }
  await page.getByRole('navigation', { name: 'Rows per page' }).getByRole('link', { name: '100', exact: true }).click();
  await expect(results(page).locator('tbody tr')).toHaveCount(Math.min(count, 100));
});

test('at 1366 × 900 the results show without scrolling and the page never scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const cols = ['ret_12m', 'pe_ttm', 'ps_ttm', 'pb', 'ev_ebitda_ttm', 'roe', 'gross_margin', 'dividend_yield', 'beta_1y'];
  await page.goto(`/screener?r=market_cap+%3E+0&${cols.map((c) => `col=${c}`).join('&')}`);
  const table = results(page);
  await expect(table).toBeVisible();
  const top = await table.evaluate((el) => el.getBoundingClientRect().top);
  expect(top).toBeLessThan(900);
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  const region = page.getByRole('region', { name: 'Screen results table' });
  await expect(region).toHaveAttribute('tabindex', '0');
  await expectNoAxeViolations(page);
});

test('explain draws under its row without jumping to the top', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/screener?r=market_cap+%3E+0&sort=ticker:asc');
  const row = results(page).locator('tbody tr').nth(20);
  const ticker = (await row.getByRole('rowheader').innerText()).trim();
  await row.scrollIntoViewIfNeeded();
  await row.getByRole('link', { name: `Explain ${ticker}`, exact: true }).click();
  const why = page.getByRole('region', { name: new RegExp(`^Why ${ticker} is`) });
  await expect(why).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  const gap = await page.evaluate(
    ([id]) => {
      const r = document.getElementById(id)!.getBoundingClientRect();
      const e = document.querySelector('.screener-explain-row')!.getBoundingClientRect();
      return e.top - r.bottom;
    },
    [(await row.getAttribute('id')) ?? ''],
  );
  expect(Math.abs(gap)).toBeLessThan(5);
  await expect(why).toBeInViewport();
});

test('focus stays on the new rule after each add; the save dialog cancels back to the screen', async ({ page }, testInfo) => {
  await page.goto('/screener');
  await addRule(page, { '#add-metric': 'pe_ttm', '#add-op': '<', '#add-value': '40' }, 'Add value rule');
  if (testInfo.project.name === 'js') await expect(page.getByLabel('Rule 1', { exact: true })).toBeFocused();
  await addRule(page, { '#expr-text': 'price > 0' }, 'Add expression rule');
  if (testInfo.project.name === 'js') await expect(page.getByLabel('Rule 2', { exact: true })).toBeFocused();
  const screenUrl = page.url();
  await page.getByRole('link', { name: 'Save screen…' }).click();
  const prompt = modal(page, 'Save screen');
  await expect(prompt).toBeVisible();
  await control(prompt, 'Cancel').click();
  await expect(prompt).toBeHidden();
  await expect(page).not.toHaveURL(/modal=save/);
  await expect(page).toHaveURL(/\/screener\?r=/);
  expect(new URL(page.url()).search).toBe(new URL(screenUrl).search);
  await expect(page.getByLabel('Rule 2', { exact: true })).toHaveValue('price > 0');
});

test('build and save a screen by keyboard alone', async ({ page }) => {
  await page.goto('/screener');
  await tabTo(page, page.locator('#add-metric'));
  await page.keyboard.type('pe_ttm');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type('40');
  await tabTo(page, page.getByRole('button', { name: 'Add value rule' }));
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Rule 1', { exact: true })).toHaveValue('pe_ttm > 40');
  await tabTo(page, page.getByRole('link', { name: 'Save screen…' }));
  await page.keyboard.press('Enter');
  const prompt = modal(page, 'Save screen');
  await expect(prompt).toBeVisible();
  const input = prompt.getByLabel('Name');
  await tabTo(page, input, 20);
  const name = `Keyboard ${Date.now()}`;
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  const info = modal(page, 'Screen saved');
  await expect(info).toContainText(name);
  await tabTo(page, control(info, 'OK'), 20);
  await page.keyboard.press('Enter');
  await expect(info).toBeHidden();
  await page.goto('/screener/manage');
  await expect(page.getByRole('rowheader', { name })).toBeVisible();
});
