import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { control, javaScriptOn, modal } from './support/page-helpers';
import { expect, test } from './support/shared-account';
import { expectNoAxeViolations } from './support/fixtures';

// The screener's saved column sets and its add-to-watchlist per row, with JavaScript on and off
// (projects js / nojs): choose a column by its label, save the columns shown as a set, come back
// and pick the set, the CSV's header equal to the table's; rename and delete a set; add a row to
// the watchlist and land on the same results with the answer beside the row; by keyboard alone.

const SCREEN = '/screener?r=market_cap+%3E+0&sort=ticker:asc&size=25';

function results(page: Page): Locator {
  return page.getByTestId('screener-results');
}

/** The metric headers of the results table (after Ticker, Name, Sector; before Actions). */
async function tableMetricHeaders(page: Page): Promise<string[]> {
  // A sortable header reads "Market cap , sort descending" (its link's hidden text): keep the label.
  const texts = (await results(page).locator('thead th').allInnerTexts()).map((t) =>
    t
      .replace(/\s+/g, ' ')
      .replace(/\s*,\s*sort (ascending|descending).*$/, '')
      .trim(),
  );
  return texts.slice(texts.indexOf('Sector') + 1, texts.indexOf('Actions'));
}

async function tabTo(page: Page, target: Locator, max = 400): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('could not reach the element with Tab');
}

const uniqueName = (what: string) => `${what} ${test.info().project.name} ${Date.now()}`;

test('choose a column by label, save the columns as a set, pick it later; the CSV has the table’s columns', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(SCREEN);
  await page.getByText('Ranking, columns and date').click();
  await page.getByLabel('Column metric').fill('Dividend yield');
  await page.getByRole('button', { name: 'Add column', exact: true }).click();
  await expect(page).toHaveURL(/col=dividend_yield/);
  await expect(results(page).getByRole('columnheader', { name: /^Dividend yield/ })).toBeVisible();
  const shown = await tableMetricHeaders(page);
  expect(shown).toEqual(['Market cap', 'Dividend yield']);

  const name = uniqueName('Yield');
  const screenUrl = page.url();
  await page.getByLabel('Save these columns as').fill(name);
  await page.getByRole('button', { name: 'Save column set', exact: true }).click();
  const notice = page.getByTestId('screener-notice');
  await expect(notice).toContainText(`Saved the column set “${name}” (2 columns).`);
  expect(new URL(page.url()).search).toBe(new URL(screenUrl).search);
  await expect(page.getByLabel('Column set')).toHaveValue(/.+/);
  await expectNoAxeViolations(page);

  // Later: the same screen without chosen columns, then the set from the select.
  await page.goto(SCREEN);
  await expect(page.getByLabel('Column set')).toHaveValue('default');
  await page.getByLabel('Column set').selectOption({ label: `${name} (2 columns)` });
  await page.getByRole('button', { name: 'Show columns', exact: true }).click();
  await expect(page).toHaveURL(/col=market_cap&col=dividend_yield/);
  await expect(page).toHaveURL(/r=market_cap\+%3E\+0/);
  await expect.poll(() => tableMetricHeaders(page)).toEqual(['Market cap', 'Dividend yield']);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: /^Download CSV/ }).click();
  const csv = readFileSync(await (await downloading).path(), 'utf8');
  const header = csv.split('\r\n')[0].split(',');
  const metricHeaders = header.slice(5);
  const table = await tableMetricHeaders(page);
  expect(metricHeaders.length).toBe(table.length);
  metricHeaders.forEach((h, i) => expect(h.startsWith(table[i])).toBe(true));

  // Default goes back to the results' own columns.
  await page.getByLabel('Column set').selectOption('default');
  await page.getByRole('button', { name: 'Show columns', exact: true }).click();
  await expect(page).not.toHaveURL(/col=/);
  await expect.poll(() => tableMetricHeaders(page)).toEqual(['Market cap']);
});

test('rename and delete a column set on its page', async ({ page }) => {
  const name = uniqueName('Rename me');
  await page.goto(`${SCREEN}&col=pe_ttm`);
  await page.getByLabel('Save these columns as').fill(name);
  await page.getByRole('button', { name: 'Save column set', exact: true }).click();
  await expect(page.getByTestId('screener-notice')).toContainText(name);
  await page.getByRole('link', { name: 'Manage column sets' }).click();
  await expect(page.getByRole('heading', { name: 'Column sets', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: `Rename ${name}`, exact: true }).click();
  const rename = modal(page, 'Rename column set');
  await rename.getByLabel('Name').fill(`${name} renamed`);
  await control(rename, 'OK').click();
  await expect(page.getByTestId('column-sets-notice')).toContainText(`now called “${name} renamed”`);
  await expect(page.getByRole('rowheader', { name: `${name} renamed`, exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: `Delete ${name} renamed`, exact: true }).click();
  const confirm = modal(page, 'Delete column set?');
  await control(confirm, 'Delete column set').click();
  await expect(page.getByTestId('column-sets-notice')).toContainText('deleted');
  await expect(page.getByRole('rowheader', { name: `${name} renamed`, exact: true })).toHaveCount(0);
});

test('add a row to the watchlist: the answer shows beside the row, on the same results', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(SCREEN);
  const row = results(page).locator('tbody tr').nth(12);
  const ticker = (await row.getByRole('rowheader').innerText()).trim();
  await row.scrollIntoViewIfNeeded();
  // With JavaScript, click once the page is hydrated (the form then posts in the background).
  if (javaScriptOn()) await expect(row.locator('input[name="inline"]')).toHaveCount(1);
  const before = new URL(page.url());
  await row.getByRole('button', { name: `Add ${ticker} to watchlist`, exact: true }).click();
  const status = page.locator(`#${await row.getAttribute('id')}`).getByRole('status');
  await expect(status).toContainText(new RegExp(`(Added ${ticker} to|${ticker} is already on) `));
  // Without JavaScript the post came back to the very same results (query kept, the row's anchor).
  expect(new URL(page.url()).search).toBe(before.search);
  if (!javaScriptOn()) expect(new URL(page.url()).hash).toBe(`#${await row.getAttribute('id')}`);
  await expect(modal(page, 'Watchlist')).toHaveCount(0);
  if (!javaScriptOn()) {
    // Back at the row (its #anchor), not at the top of the page.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await expect(page.locator(`#${await row.getAttribute('id')}`)).toBeInViewport();
  }

  // Again: already on the list is information, not success.
  const again = results(page).locator(`#${await row.getAttribute('id')}`);
  await again.getByRole('button', { name: `Add ${ticker} to watchlist`, exact: true }).click();
  const info = page.locator(`#${await row.getAttribute('id')}`).locator('.inline-status--info');
  await expect(info).toContainText(`${ticker} is already on`);
  await expect(page.locator(`#${await row.getAttribute('id')}`).locator('.inline-status--success')).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('save and pick a column set by keyboard alone', async ({ page }) => {
  test.setTimeout(120_000);
  const name = uniqueName('Keys');
  await page.goto(`${SCREEN}&col=ret_12m`);
  const input = page.getByLabel('Save these columns as');
  await tabTo(page, input);
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('screener-notice')).toContainText(name);

  await page.goto(SCREEN);
  const select = page.getByLabel('Column set');
  await tabTo(page, select);
  // Type-ahead picks the option by its first letters, as a keyboard user would.
  await page.keyboard.type(name.slice(0, 4));
  await expect(select.locator('option:checked')).toHaveText(new RegExp(`^${name.slice(0, 4)}`));
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Show columns', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/col=ret_12m/);
  await expect(results(page).getByRole('columnheader', { name: /^Return \(12 months\)/ })).toBeVisible();
});

test('at 390 px the column sets page does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const name = uniqueName('A rather long column set name to test the width');
  await page.goto(`${SCREEN}&col=roe`);
  await page.getByLabel('Save these columns as').fill(name);
  await page.getByRole('button', { name: 'Save column set', exact: true }).click();
  await expect(page.getByTestId('screener-notice')).toContainText(name);
  for (const path of ['/screener/columns']) {
    await page.goto(path);
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect([path, widths.page]).toEqual([path, Math.min(widths.page, widths.viewport)]);
  }
  await expectNoAxeViolations(page);
});
