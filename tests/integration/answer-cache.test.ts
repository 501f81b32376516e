import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyDividends, companyFinancials, companyHeader, companyOverview } from '~/services/company/company-pages.server';
import { companyPeers } from '~/services/company/peers.server';
import { priceChartPage } from '~/services/company/price-chart.server';
import { companyValuation } from '~/services/company/valuation.server';
import { browseMetric } from '~/services/data-browser/data-browser.server';
import { afterMarketDataChange } from '~/services/imports/post-import.server';
import { loadDemoUniverse } from '~/services/imports/load-demo.server';
import { silentProgress } from '~/services/imports/progress.server';
import { answerCacheStats, clearAnswerCache } from '~/services/market/store/answer-cache.server';
import { closeMarketReader, openMarketReader } from '~/services/market/store/open-store.server';
import { metricSeries } from '~/services/metrics/snapshots.server';
import { useDatabase } from '../support/databases';

// The read services keep their answers per store version (answer-cache.server.ts). A kept answer
// must be exactly what computing it again gives, and publishing a new snapshot (another demo
// universe renamed over the file, as every writer publishes) must never leave an old answer
// served: after it, every answer is that of the new data.

const db = useDatabase('sqlite', 'answer-cache');
let file = '';
let permaticker = 0;
let other = 0;

async function readAll() {
  const options = { file };
  const header = await companyHeader(String(permaticker), options);
  return {
    overview: await companyOverview(header, null, options),
    valuation: await companyValuation(header, '2024-03-15', options),
    income: await companyFinancials(header, null, 'income', 'quarterly', options),
    dividends: await companyDividends(header, null, options),
    peers: await companyPeers(header, null, options),
    series: await metricSeries(permaticker, 'revenue_ttm', { marketDb: file }),
    browser: await browseMetric(permaticker, 'gross_margin', { compare: [], mode: 'latest', from: null, to: null, asOf: null }, options),
    // A comparison typed that matches nothing: its message comes first on a kept answer too.
    chart: await priceChartPage(
      header,
      null,
      { range: 'Max', basis: 'adjusted', ma: false, compare: ['NOSUCHCO', String(other)], add: '' },
      options,
    ),
  };
}

async function publishDemo(seed: number): Promise<void> {
  await loadDemoUniverse(file, { companies: 24, years: 5, seed }, silentProgress, {
    beforePublish: (work) => afterMarketDataChange(work, silentProgress),
  });
}

beforeAll(async () => {
  file = path.join(db.dataDir, 'market.duckdb');
  await publishDemo(21);
  const reader = await openMarketReader(file);
  [{ permaticker }, { permaticker: other }] = await reader.all<{ permaticker: number }>(
    `SELECT permaticker FROM securities WHERE NOT is_delisted AND sector IS NOT NULL ORDER BY first_price_date, permaticker LIMIT 2`,
  );
  reader.close();
}, 240_000);

afterAll(() => closeMarketReader());

describe('answers kept per store version', () => {
  it('a kept answer is the one computing it again gives, and a repeat is the kept one', async () => {
    clearAnswerCache();
    const first = await readAll();
    expect(first.valuation.series.length).toBeGreaterThan(0);
    expect(first.income.columns.length).toBeGreaterThan(4);
    expect(first.series.points.length).toBeGreaterThan(4);
    const chart = first.chart.kind === 'view' ? first.chart.view : null;
    expect(chart?.comparisons.map((c) => c.permaticker)).toEqual([other]);
    expect(chart?.messages[0]).toBe('No company matches “NOSUCHCO”: try a ticker, a name or a permaticker.');
    expect(chart?.points.length).toBeGreaterThan(100);
    expect(answerCacheStats().entries).toBeGreaterThanOrEqual(8);
    const again = await readAll();
    expect(again.overview).toBe(first.overview);
    expect(again.series).toBe(first.series);
    expect(again.chart).toEqual(first.chart);
    clearAnswerCache();
    const computed = await readAll();
    expect(computed.overview).not.toBe(first.overview);
    expect(computed).toEqual(first);
  });

  it('publishing a new snapshot drops the old answers: every answer is the new data', async () => {
    clearAnswerCache();
    const before = await readAll();
    // Another universe under the same file name (the same permatickers, other companies and data).
    await publishDemo(22);
    const after = await readAll();
    clearAnswerCache();
    const fresh = await readAll();
    expect(after).toEqual(fresh);
    expect(after.overview.prices).not.toEqual(before.overview.prices);
    expect(after.series.points).not.toEqual(before.series.points);
    expect(after.income).not.toEqual(before.income);
  }, 240_000);
});
