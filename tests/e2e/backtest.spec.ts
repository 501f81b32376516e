import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expectNoAxeViolations } from './support/fixtures';
import { acknowledgeInfo, control, javaScriptOn, modal, waitForHydration } from './support/page-helpers';
import { expect as baseExpect, test } from './support/shared-account';

// Backtests with JavaScript on and off, on the e2e demo market: from a saved screen, run a
// backtest, watch it (progress bar, or the page reloading itself), cancel one and run it again,
// read the statistics, switch the chart to log scale, open a rebalance, download every CSV,
// share the read-only link (another account opens it; a signed-out visitor follows the route
// rules), compare with survivors only, delete from the list with the confirm modal.

const RESULT_TIMEOUT = 120_000;

// The result page is large (charts with their data tables, a page of trades): on a loaded
// machine a client-side navigation to it can take more than the default 10 s.
const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

async function tabTo(page: Page, target: Locator, max = 200): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('could not reach the element with Tab');
}

async function saveScreen(page: Page, name: string): Promise<string> {
  await page.goto('/screener?r=market_cap+%3E+0&rank=ret_12m%3Adesc');
  await waitForHydration(page);
  await page.getByRole('link', { name: 'Save screen…' }).click();
  const prompt = modal(page, 'Save screen');
  await prompt.getByLabel('Name').fill(name);
  await control(prompt, 'OK').click();
  await acknowledgeInfo(page, 'Screen saved', name);
  const href = (await page.getByRole('link', { name: 'Backtest this screen' }).getAttribute('href')) ?? '';
  expect(href).toMatch(/^\/backtest\?screener_id=[A-Za-z0-9-]+$/);
  return href;
}

function runButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Run backtest' });
}

function resultHeading(page: Page): Locator {
  return page.getByRole('heading', { name: 'Equity against the benchmark' });
}

async function downloadCsv(page: Page, name: string): Promise<string[]> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name }).click();
  const download = await downloading;
  return readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\r\n');
}

test('run a saved screen through history, read it, share it, compare with survivors, delete', async ({
  page,
  browser,
  createUser,
  signIn,
}) => {
  test.setTimeout(300_000);
  // Hydration problems and failed client navigations show up as console errors.
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  const name = `Momentum ${Date.now()}`;
  const formHref = await saveScreen(page, name);

  // The form, prefilled from the market data. A slow run first (daily, holding every passer)
  // keeps the app's one worker busy (it is cancelled below, long before it would end), so the
  // run after it is still waiting when its page is checked.
  await page.getByRole('link', { name: 'Backtest this screen' }).click();
  await expect(page.getByRole('heading', { name: `Backtest “${name}”` })).toBeVisible();
  await expect(page.getByLabel('Rebalance')).toHaveValue('monthly');
  await expect(page.getByLabel('Hold the top N passers')).toHaveValue('20');
  await page.getByLabel('Rebalance').selectOption('daily');
  await page.getByLabel('Hold the top N passers').fill('all');
  await runButton(page).click();
  await expect(page).toHaveURL(/\/backtest\?backtest_id=/);
  const slowRun = page.url();

  // The run behind it: its page shows the progress and can be cancelled.
  await page.goto(formHref);
  await page.getByLabel('Hold the top N passers').fill('10');
  await runButton(page).click();
  await expect(page).toHaveURL(/\/backtest\?backtest_id=/);
  const progress = page.getByRole('progressbar', { name: 'Progress' });
  // On a loaded machine the slow run can still end first and this one before its page is read:
  // then the waiting page and the cancel are skipped here (the route tests cover them).
  const waiting = page.getByRole('heading', { name: 'Waiting for a worker' });
  await expect(waiting.or(resultHeading(page))).toBeVisible({ timeout: RESULT_TIMEOUT });
  if (await waiting.isVisible()) {
    await expect(progress).toBeVisible();
    await expect(page.getByTestId('backtest-progress-text')).toContainText('%');
    await expectNoAxeViolations(page);
    // The run may still finish between reading its page and the click (polling, or the no-JS
    // refresh, then replaces the button by the result): only a button still there must work.
    const cancel = page.getByRole('button', { name: 'Cancel backtest' });
    await cancel.click({ timeout: 10_000 }).catch(async (e: unknown) => {
      if ((await cancel.count()) > 0) throw e;
    });
    await expect(page.getByRole('heading', { name: 'The backtest was cancelled' }).or(resultHeading(page))).toBeVisible({
      timeout: RESULT_TIMEOUT,
    });
  }
  const cancelledRun = page.url();
  // The slow run has done its job: stop it, if it still runs.
  await page.goto(slowRun);
  const stop = page.getByRole('button', { name: 'Cancel backtest' });
  if ((await stop.count()) > 0) await stop.click();

  // Run again: the form comes back with that run's parameters; bad input gets its message.
  await page.goto(cancelledRun);
  await page.getByRole('link', { name: 'Run again' }).click();
  await expect(page.getByLabel('Hold the top N passers')).toHaveValue('10');
  await expect(page.getByLabel('Rebalance')).toHaveValue('monthly');
  await expectNoAxeViolations(page);
  await page.getByLabel('Hold the top N passers').fill('many');
  await runButton(page).click();
  await expect(page.getByText('Hold a whole number from 1 to 500, or "all"')).toBeVisible();
  await page.getByLabel('Hold the top N passers').fill('10');

  // Run it again by keyboard, and watch it finish.
  await tabTo(page, runButton(page));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/backtest\?backtest_id=/);
  if (javaScriptOn()) {
    // Polling: the same page, no reload, until the result replaces the progress bar.
    await expect(progress.or(resultHeading(page))).toBeVisible();
  } else {
    // Without JavaScript the page reloads itself (a <meta refresh>) while the backtest is
    // unfinished. Read through a locator, which waits: the HTML of a page caught in the middle of
    // such a reload is cut short.
    const refresh = page.locator('meta[http-equiv="refresh"][content="2"]');
    await expect(refresh.or(resultHeading(page)).first()).toBeAttached();
  }
  await expect(resultHeading(page)).toBeVisible({ timeout: RESULT_TIMEOUT });
  await expect(progress).toHaveCount(0);
  const resultUrl = page.url();

  // The statistics.
  const stats = page.getByTestId('backtest-statistics');
  await expect(stats.getByRole('row', { name: /^Total return/ })).toContainText(/-?\d+\.\d{2}%/);
  await expect(stats.getByRole('row', { name: /^Sharpe ratio/ })).toContainText(/-?\d+\.\d{2}/);
  await expect(stats.getByRole('link', { name: 'CAGR', exact: true })).toHaveAttribute('href', '/backtest/methodology#cagr');
  await expect(page.getByTestId('backtest-monthly').getByRole('row')).not.toHaveCount(0);
  await expect(page.getByTestId('backtest-parameters')).toContainText('Top 10');
  await expect(page.getByText(/Reproducible: the same screen/)).toBeVisible();

  // Log scale is a link.
  await page.getByRole('link', { name: 'Log scale' }).click();
  await expect(page).toHaveURL(/scale=log/);
  await expect(page.getByRole('link', { name: 'Log scale' })).toHaveAttribute('aria-current', 'true');

  // Open a rebalance: its holdings with weights, ranks and the screen's values.
  const rebalances = page.getByTestId('backtest-rebalances');
  await rebalances.getByRole('link', { name: /^Open the holdings of rebalance 3 / }).click();
  await expect(page).toHaveURL(/rebalance=3/);
  const holdings = page.getByTestId('backtest-holdings');
  await expect(holdings.getByRole('columnheader', { name: 'Weight' })).toBeVisible();
  await expect(holdings.getByRole('columnheader', { name: /Market cap/ })).toBeVisible();
  expect(await holdings.locator('tbody tr').count()).toBe(10);
  await expect(holdings.locator('tbody tr').first()).toContainText('%');

  // Survivors only.
  await expect(page.getByTestId('survivorship-bias')).toContainText(/ pp/);
  await expect(page.getByTestId('backtest-survivors').getByRole('row', { name: /^Total return/ })).toContainText('%');

  // Every CSV.
  const curves = await downloadCsv(page, 'Curves (equity, benchmark, drawdown)');
  expect(curves[0]).toBe('date,equity,benchmark,drawdown,survivors_equity');
  expect(curves[1]).toMatch(/^\d{4}-\d{2}-\d{2},10000,[\d.]+,0,/);
  const holdingsCsv = await downloadCsv(page, 'Holdings per rebalance');
  expect(holdingsCsv[0]).toMatch(/^rebalance,signal_date,trade_date,permaticker,ticker,weight,rank,/);
  expect(holdingsCsv[1]).toMatch(/^1,\d{4}-\d{2}-\d{2},\d{4}-\d{2}-\d{2},\d+,/);
  const trades = await downloadCsv(page, 'Trades');
  expect(trades[0]).toBe('date,permaticker,ticker,side,reason,value,price,shares,cost');
  expect(trades[1]).toMatch(/,buy,rebalance,/);
  const monthly = await downloadCsv(page, 'Monthly returns');
  expect(monthly[0]).toBe('year,jan,feb,mar,apr,may,jun,jul,aug,sep,oct,nov,dec,year_return');
  expect(monthly.length).toBeGreaterThan(1);

  // Share: another account opens the permalink read-only; a signed-out visitor is sent where
  // the route rules send guests.
  await page.getByRole('button', { name: 'Share read-only link' }).click();
  const shareLink = page.getByTestId('backtest-share-link');
  await expect(shareLink).toBeVisible();
  const permalink = (await shareLink.getAttribute('href')) ?? '';
  expect(permalink).toMatch(/\/backtest\/shared\/[A-Za-z0-9_-]{20,}$/);
  await expectNoAxeViolations(page, { rules: ['landmark-unique'] });
  // On a phone the survivors table scrolls inside its own region, reachable by keyboard.
  await page.setViewportSize({ width: 390, height: 844 });
  const survivors = page.getByRole('region', { name: 'Survivors-only comparison table' });
  await expect(survivors).toHaveAttribute('tabindex', '0');
  await survivors.focus();
  await expect(survivors).toBeFocused();
  await page.setViewportSize({ width: 1280, height: 720 });

  // Contexts made in a test inherit the project's signed-in storage state unless told otherwise.
  const fresh = { javaScriptEnabled: javaScriptOn(), baseURL: new URL(page.url()).origin, storageState: { cookies: [], origins: [] } };
  const strangerContext = await browser.newContext(fresh);
  const stranger = await strangerContext.newPage();
  await stranger.goto(permalink);
  await expect(stranger).toHaveURL(/\/data-browser/);
  await expect(stranger.getByText(name)).toHaveCount(0);
  await strangerContext.close();

  const readerContext = await browser.newContext(fresh);
  const reader = await readerContext.newPage();
  const other = await createUser({ access: true, name: 'Reader Account' });
  await signIn(reader, other.email, other.password);
  await reader.goto(permalink);
  await expect(reader.getByRole('heading', { name: `Shared backtest “${name}”` })).toBeVisible();
  await expect(reader.getByTestId('backtest-statistics')).toBeVisible();
  await expectNoAxeViolations(reader, { rules: ['landmark-unique'] });
  await expect(reader.getByRole('link', { name: /Delete backtest/ })).toHaveCount(0);
  await expect(reader.getByRole('button', { name: /Share|Cancel/ })).toHaveCount(0);
  const sharedTrades = await downloadCsv(reader, 'Trades');
  expect(sharedTrades).toEqual(trades);
  await readerContext.close();

  // The list of past backtests: delete the run that waited (cancelled, or done on a loaded machine)
  // through the confirm modal.
  await page.goto(resultUrl);
  await page.getByRole('link', { name: 'Past backtests of this screen' }).click();
  const list = page.getByTestId('backtest-list');
  await expect(list.getByRole('row')).toHaveCount(1 + 3);
  const waitedId = new URL(cancelledRun).searchParams.get('backtest_id') ?? '';
  const cancelledRow = list.getByRole('row').filter({ has: page.locator(`a[href*="${waitedId}"]`) });
  await cancelledRow.getByRole('link', { name: /^Delete the backtest/ }).click();
  const confirm = modal(page, 'Delete backtest?');
  await expect(confirm).toBeVisible();
  await control(confirm, 'Delete backtest').click();
  await acknowledgeInfo(page, 'Backtest deleted', name);
  await expect(list.getByRole('row')).toHaveCount(1 + 2);
  await expect(cancelledRow).toHaveCount(0);
  await expect(list.getByRole('row').filter({ hasText: 'Done' }).filter({ hasText: 'Monthly' })).toHaveCount(1);

  // /screener/manage lists them too.
  await page.goto('/screener/manage');
  await expect(page.getByRole('heading', { name: 'Backtests' })).toBeVisible();
  await expect(page.getByTestId('backtest-list').getByRole('row').filter({ hasText: name })).toHaveCount(2);
  await expectNoAxeViolations(page);

  // The methodology page the results link to.
  await page.goto('/backtest/methodology#survivors-only');
  await expect(page.getByRole('heading', { name: 'Survivors only' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Snapshots' })).toBeVisible();
  await expectNoAxeViolations(page);
  // Without JavaScript the deliberately bad form is answered 400, which the browser logs.
  expect(consoleErrors.filter((e) => !(!javaScriptOn() && e.includes('status of 400')))).toEqual([]);
});
