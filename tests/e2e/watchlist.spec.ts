import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { acknowledgeInfo } from './support/page-helpers';
import { expect, test } from './support/shared-account';
import { expectNoAxeViolations } from './support/fixtures';

// Watchlists with JavaScript on and off: add two screener results, add a column, write a note,
// export CSV.

async function addTwoResults(page: Page): Promise<string[]> {
  await page.goto('/screener?r=market_cap+%3E+0&sort=ticker:asc');
  const rows = page.getByTestId('screener-results').locator('tbody tr');
  const tickers: string[] = [];
  for (const i of [0, 1]) {
    const ticker = (await rows.nth(i).getByRole('rowheader').innerText()).trim();
    tickers.push(ticker);
    await rows
      .nth(i)
      .getByRole('button', { name: `Add ${ticker} to watchlist` })
      .click();
    await acknowledgeInfo(page, 'Watchlist', ticker);
  }
  return tickers;
}

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
