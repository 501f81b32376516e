import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { javaScriptOn, modal } from './support/page-helpers';
import { expect, test } from './support/shared-account';
import { expectNoAxeViolations } from './support/fixtures';

// Watchlists with JavaScript on and off: add two screener results (the answer shows on the
// results, never in a dialog), add a column, write a note, export CSV.

/**
 * Adds a screener row; the answer shows in the row, no dialog: with JavaScript in place, without
 * it after the post comes back to the same results.
 * `mode` undefined: whichever the answer says (the shared account may already hold the row).
 */
async function addRow(page: Page, row: Locator, ticker: string, expected: RegExp, mode?: 'success' | 'info'): Promise<void> {
  const id = (await row.getAttribute('id')) ?? '';
  await row.getByRole('button', { name: `Add ${ticker} to watchlist` }).click();
  // Without JavaScript the page is new: find the row again by its id.
  const status = page.locator(`[id="${id}"]`).getByRole('status');
  await expect(status).toHaveText(expected);
  const said = mode ?? (/already on/.test(await status.innerText()) ? 'info' : 'success');
  await expect(status).toHaveClass(new RegExp(`inline-status--${said}`));
  await expect(modal(page, 'Watchlist')).toHaveCount(0);
}

async function addTwoResults(page: Page): Promise<string[]> {
  await page.goto('/screener?r=market_cap+%3E+0&sort=ticker:asc');
  const rows = page.getByTestId('screener-results').locator('tbody tr');
  const tickers: string[] = [];
  for (const i of [0, 1]) {
    const ticker = (await rows.nth(i).getByRole('rowheader').innerText()).trim();
    tickers.push(ticker);
    await addRow(page, rows.nth(i), ticker, new RegExp(`(Added ${ticker} to|${ticker} is already on)`));
  }
  return tickers;
}

test('adding from the screener keeps the place; already there is information; add selected and all', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/screener?r=market_cap+%3E+0&sort=ticker:asc');
  const rows = page.getByTestId('screener-results').locator('tbody tr');
  const row = rows.nth(30);
  const ticker = (await row.getByRole('rowheader').innerText()).trim();
  await row.scrollIntoViewIfNeeded();
  if (javaScriptOn()) await expect(row.locator('input[name="inline"]')).toHaveCount(1);
  await row.getByRole('button', { name: `Add ${ticker} to watchlist` }).click();
  await expect(row.getByRole('status')).toContainText(ticker);
  // Back at the same row (without JavaScript the post comes back to its #anchor), not at the top.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await expect(row).toBeInViewport();
  await expect(modal(page, 'Watchlist')).toHaveCount(0);
  await addRow(page, row, ticker, new RegExp(`${ticker} is already on My watchlist`), 'info');
  if (javaScriptOn()) {
    // By keyboard: the answer comes in place and the focus stays on the button.
    const next = rows.nth(31);
    const nextTicker = (await next.getByRole('rowheader').innerText()).trim();
    const button = next.getByRole('button', { name: `Add ${nextTicker} to watchlist` });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(next.getByRole('status')).toContainText(nextTicker);
    await expect(button).toBeFocused();
  }

  // Select two rows and add them; then every result.
  const count = Number((await page.getByTestId('screener-count').locator('strong').innerText()).trim());
  await rows.nth(40).getByRole('checkbox').check();
  await rows.nth(41).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Add selected', exact: true }).click();
  // With JavaScript the answer shows beside the buttons; without, at the top of the same results.
  const bulk = javaScriptOn() ? page.locator('#screener-add-many').getByRole('status') : page.getByTestId('screener-notice');
  await expect(bulk).toContainText(/Added 2 securities to My watchlist/);
  await page.getByRole('button', { name: `Add all ${count} results`, exact: true }).click();
  await expect(bulk).toContainText(`already on it`);
  await expect(modal(page, 'Watchlist')).toHaveCount(0);
  await page.goto('/watchlist');
  await expect(page.getByTestId('watchlist-table').locator('tbody tr')).toHaveCount(count);
  // At 1366 px nothing is cut off: the note box has room and Remove is on screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const first = page.getByTestId('watchlist-table').locator('tbody tr').first();
  await expect(first.getByRole('button', { name: /^Remove / })).toBeInViewport();
  expect(await first.getByRole('textbox').evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(110);
  await expectNoAxeViolations(page);
});

test('add two results, add a column, write a note, export CSV', async ({ page }) => {
  const tickers = await addTwoResults(page);
  await page.goto('/watchlist');
  const table = page.getByTestId('watchlist-table');
  for (const t of tickers) await expect(table.getByRole('rowheader', { name: t, exact: true })).toBeVisible();

  await page.getByLabel('Add a column').selectOption('rsi14');
  await page.getByRole('button', { name: 'Add column', exact: true }).click();
  await expect(table.getByRole('columnheader', { name: /RSI \(14 days\)/ })).toBeVisible();

  const note = `watch ${Date.now()}`;
  await page.getByRole('textbox', { name: `Note for ${tickers[0]}` }).fill(note);
  await page.getByRole('button', { name: `Save note for ${tickers[0]}` }).click();
  await expect(page.getByRole('textbox', { name: `Note for ${tickers[0]}` })).toHaveValue(note);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const download = await downloading;
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv.split('\r\n')[0]).toContain('RSI (14 days)');
  expect(csv).toContain(note);
  for (const t of tickers) expect(csv).toContain(`${t},`);
  await expectNoAxeViolations(page);
});
