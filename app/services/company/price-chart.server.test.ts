import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyHeader } from './company-pages.server';
import { MAX_COMPARE_TOKENS } from './price-chart';
import { chartQuery, priceChartPage, type ChartQuery, type PriceChartView } from './price-chart.server';
import { closeMarketReader } from '../market/store/open-store.server';
import { writeMarketFixture } from '../market/store/test-fixture.server';
import { withMarketWriter } from '../market/store/writer.server';

// The Chart tab on the hand-made market: ACME (1) has a 2-for-1 split on 2020-01-06; ACM (2) gets
// prices here; the other companies have none in the range.

const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-price-chart-'));
const file = path.join(dir, 'market.duckdb');
const opts = { file };

beforeAll(async () => {
  await writeMarketFixture(file);
  await withMarketWriter(file, {}, async (w) => {
    await w.transaction(async (tx) => {
      const bar = (date: string, close: number) => ({
        permaticker: 2,
        date,
        open: close,
        high: close,
        low: close,
        close,
        volume: 10,
        closeUnadj: close,
        tri: close,
      });
      await tx.replacePrices([2], [bar('2020-01-02', 20), bar('2020-01-03', 22), bar('2020-01-07', 25)]);
    });
    await w.finish('fixture');
  });
});
afterAll(() => {
  closeMarketReader();
  rmSync(dir, { recursive: true, force: true });
});

const q = (over: Partial<ChartQuery> = {}): ChartQuery => ({ range: 'Max', basis: 'raw', ma: false, compare: [], add: '', ...over });

async function view(over: Partial<ChartQuery>): Promise<PriceChartView> {
  const page = await priceChartPage(await companyHeader('1', opts), null, q(over), opts);
  if (page.kind !== 'view') throw new Error(`expected a view, got ${page.to}`);
  return page.view;
}

describe('price chart tab', () => {
  it('reads the query with defaults, and the former adjusted=0 address as raw', () => {
    expect(chartQuery(new URLSearchParams('range=bogus&basis=x&compare=A,B&compare=C&add=%20x%20'))).toEqual({
      range: '1Y',
      basis: 'adjusted',
      ma: false,
      compare: ['A,B', 'C'],
      add: 'x',
    });
    expect(chartQuery(new URLSearchParams('adjusted=0')).basis).toBe('raw');
    expect(chartQuery(new URLSearchParams('adjusted=0&basis=adjusted')).basis).toBe('adjusted');
  });

  it('raw and adjusted prices, volume on the same basis, a table row per day', async () => {
    const raw = await view({});
    expect(raw.mode).toBe('price');
    expect(raw.points.map((p) => p.close)).toEqual([100, 102, 52, 54]);
    expect(raw.points.map((p) => p.volume)).toEqual([500, 500, 1000, 1000]);
    expect(raw.table.sampling).toBe('daily');
    expect(raw.table.rows.map((r) => r.date)).toEqual(['2020-01-02', '2020-01-03', '2020-01-06', '2020-01-07']);
    expect(raw.table.rows[2].change).toBeCloseTo(52 / 102 - 1, 10);
    const adjusted = await view({ basis: 'adjusted' });
    expect(adjusted.dividends).toBe(true);
    // tri 1, 1.02, 1.04, 1.08 scaled to end on 54.
    expect(adjusted.points.map((p) => p.close)).toEqual([50, 51, 52, 54].map((v) => expect.closeTo(v, 10)));
    expect(adjusted.points.map((p) => p.volume)).toEqual([1000, 1000, 1000, 1000]);
  });

  it('comparisons as % change; unknown, the company itself, no prices and a 6th are said, not errors', async () => {
    const v = await view({ compare: ['ACM,acm, ACME,1,ZZZNOPE,RCY,DMO,GONE,OLD,7'] });
    expect(v.mode).toBe('percent');
    expect(v.comparisons.map((c) => c.ticker)).toEqual(['ACM', 'RCY', 'DMO', 'GONE', 'OLD']);
    expect(v.compare).toEqual(['ACM', 'RCY', 'DMO', 'GONE', 'OLD']);
    expect(v.comparisons.map((c) => c.hasPrices)).toEqual([true, false, false, false, false]);
    expect(v.points.map((p) => p.compare[0])).toEqual([0, expect.closeTo(0.1, 10), null, 0.25]);
    expect(v.points.map((p) => p.pct)).toEqual([0, 0.02, -0.48, -0.46].map((x) => expect.closeTo(x, 10)));
    expect(v.table.rows[3].compare).toEqual([0.25, null, null, null, null]);
    const text = v.messages.join('\n');
    expect(text).toContain('“ACME” is ACME itself');
    expect(text).toContain('No company matches “ZZZNOPE”');
    expect(text).toContain('RCY has no prices between 2020-01-02 and 2020-01-07');
    expect(text).toContain('Up to 5 comparisons: one more was left out (7)');
  });

  it('hostile compare lists: 50 commas, very long or many entries', async () => {
    expect(await view({ compare: [','.repeat(50)] })).toMatchObject({ comparisons: [], messages: [], mode: 'price' });
    const many = await view({ compare: [Array.from({ length: 40 }, (_, i) => `Q${i}`).join(',')] });
    expect(many.comparisons).toEqual([]);
    // At most MAX_COMPARE_TOKENS (12) entries are looked up; the rest are only counted.
    expect(many.messages.filter((m) => m.startsWith('No company matches'))).toHaveLength(MAX_COMPARE_TOKENS);
    expect(many.messages[many.messages.length - 1]).toBe('Only the first 12 entries of the compare list are read: 28 more were left out.');
    const long = await view({ compare: ['x'.repeat(2_000)] });
    expect(long.messages[0].length).toBeLessThan(200);
  });

  it('add: a name redirects to the longer list; what cannot be added stays on the page with the reason', async () => {
    const company = await companyHeader('1', opts);
    expect(await priceChartPage(company, null, q({ add: 'Acme Mining' }), opts)).toEqual({
      kind: 'redirect',
      to: '?range=Max&basis=raw&compare=ACM',
    });
    expect(await priceChartPage(company, '2020-01-06', q({ add: '7', compare: ['ACM'] }), opts)).toEqual({
      kind: 'redirect',
      to: '?as_of=2020-01-06&range=Max&basis=raw&compare=ACM%2C7',
    });
    expect((await view({ add: 'nothing like it' })).messages).toEqual([
      'No company matches “nothing like it”: try a ticker, a name or a permaticker.',
    ]);
    expect((await view({ add: 'ACM', compare: ['ACM'] })).messages).toEqual(['“ACM” is already on the chart.']);
    expect((await view({ add: 'acme' })).messages[0]).toContain('ACME itself');
    const full = await view({ add: '7', compare: ['ACM,RCY,DMO,GONE,OLD'] });
    expect(full.compare).toHaveLength(5);
    expect(full.messages.join('\n')).toContain('Up to 5 comparisons: one more was left out (7)');
  });

  it('an as-of date ends the range; moving averages only without comparisons', async () => {
    const v = await view({ range: '1M', ma: true });
    expect(v.end).toBe('2020-01-07');
    expect(v.points[0].sma50).toBeNull();
    const asOf = await priceChartPage(await companyHeader('1', opts), '2020-01-03', q({ basis: 'adjusted' }), opts);
    expect(asOf.kind === 'view' && asOf.view.points.map((p) => p.date)).toEqual(['2020-01-02', '2020-01-03']);
    // Adjusted closes end on the as-of day's split-adjusted close.
    expect(asOf.kind === 'view' && asOf.view.points[1].close).toBeCloseTo(51, 10);
  });
});
