import { describe, expect, it } from 'vitest';
import { runBacktest } from './engine/simulate';
import { inputsOf, screenOf, weekdays } from './engine/test-panel';
import { curvesTable, holdingsTable, monthlyTable, resultTable, tradesTable } from './result-csv';
import { buildResultView, parseResultQuery, RESULT_PAGE_SIZE, resultHref, DEFAULT_RESULT_QUERY } from './result-view';
import type { CsvRow, CsvStream } from '../http/csv';
import { loadedFromStored, toStored, type StoredResult } from './stored-result';

// The result page's view of a stored result, and its CSV tables, on a small hand-made universe:
// 300 weekdays, daily rebalancing (so the lists are longer than a page), one company delisted.

const days = weekdays('2020-01-06', 300);
const path = (start: number, drift: number, end = days.length) =>
  Array.from({ length: days.length }, (_, i) => (i < end ? start * (1 + drift) ** i : null));
const universe = [
  { permaticker: 1, ticker: 'AAA', tri: path(10, 0.001), metrics: { pe_ttm: Array.from(days, () => 12) } },
  { permaticker: 2, ticker: 'BBB', tri: path(20, 0.0005), metrics: { pe_ttm: Array.from(days, () => 30) } },
  { permaticker: 3, ticker: 'GONE', tri: path(30, -0.002, 150), delisted: true, metrics: { pe_ttm: Array.from(days, () => 8) } },
];
const screen = screenOf(['pe_ttm > 5'], { ranking: [{ metric: 'pe_ttm', direction: 'asc', weight: 1 }] });
const run = (securities: typeof universe) => runBacktest(inputsOf(days, securities, screen, { rebalance: 'daily', topN: 2 }));
const full = run(universe);
const survivors = run(universe.filter((s) => !s.delisted));
const stored: StoredResult = toStored(full, {
  securities: 2,
  statistics: survivors.statistics,
  equity: Array.from(survivors.equity),
  delistedExcluded: 1,
});
const loaded = loadedFromStored(stored);
const withoutSurvivors = loadedFromStored({ ...stored, survivors: null });

async function rowsOf(t: CsvStream): Promise<CsvRow[]> {
  const out: CsvRow[] = [];
  for await (const batch of t.batches) out.push(...batch);
  return out;
}

describe('result query', () => {
  it('reads the view state and reports hostile values instead of failing', () => {
    expect(parseResultQuery(new URLSearchParams(''))).toEqual({ query: DEFAULT_RESULT_QUERY, problems: [] });
    expect(parseResultQuery(new URLSearchParams('scale=log&rebalance=3&trades_page=2')).query).toEqual({
      scale: 'log',
      rebalance: 3,
      rebalancesPage: 1,
      tradesPage: 2,
    });
    const bad = parseResultQuery(new URLSearchParams('scale=cubic&rebalance=-1&trades_page=1e3&rebalances_page=99999999999999999999'));
    expect(bad.query).toEqual(DEFAULT_RESULT_QUERY);
    expect(bad.problems).toHaveLength(4);
    expect(bad.problems.join(' ')).toContain('“scale” is linear or log');
  });

  it('writes links with only what differs from the defaults', () => {
    expect(resultHref('/backtest?backtest_id=x', DEFAULT_RESULT_QUERY)).toBe('/backtest?backtest_id=x');
    expect(resultHref('/backtest/shared/t', DEFAULT_RESULT_QUERY, { scale: 'log', tradesPage: 3 }, 'trades')).toBe(
      '/backtest/shared/t?scale=log&trades_page=3#trades',
    );
  });
});

describe('result view', () => {
  it('pages the rebalances and trades, clamping a huge page to the last one', async () => {
    expect(full.rebalances.length).toBeGreaterThan(RESULT_PAGE_SIZE);
    const v = await buildResultView(loaded, { ...DEFAULT_RESULT_QUERY, rebalancesPage: 1_000_000, tradesPage: 2 });
    const lastPage = Math.ceil(full.rebalances.length / RESULT_PAGE_SIZE);
    expect(v.rebalances).toMatchObject({
      page: lastPage,
      pageCount: lastPage,
      total: full.rebalances.length,
      first: (lastPage - 1) * RESULT_PAGE_SIZE + 1,
    });
    expect(v.rebalances.rows.at(-1)?.n).toBe(full.rebalances.length);
    expect(v.query.rebalancesPage).toBe(lastPage);
    expect(v.trades.rows[0]).toEqual(full.trades[RESULT_PAGE_SIZE]);
    expect(v.trades.rows.length).toBeLessThanOrEqual(RESULT_PAGE_SIZE);
  });

  it('opens one rebalance with its holdings, weights, ranks and rule values', async () => {
    const v = await buildResultView(loaded, { ...DEFAULT_RESULT_QUERY, rebalance: 1 });
    expect(v.openRebalance).toMatchObject({ n: 1, signalDate: full.rebalances[0].signalDate, metrics: ['pe_ttm'] });
    expect(v.openRebalance?.holdings.map((h) => [h.ticker, h.rank, h.values.pe_ttm])).toEqual([
      ['GONE', 1, 8],
      ['AAA', 2, 12],
    ]);
    const missing = await buildResultView(loaded, { ...DEFAULT_RESULT_QUERY, rebalance: 10_000 });
    expect(missing.openRebalance).toBeNull();
    expect(missing.query.rebalance).toBeNull();
    expect(missing.problems).toEqual([`There is no rebalance 10000: this backtest has ${full.rebalances.length}.`]);
  });

  it('compares with the survivors-only run in percentage points', async () => {
    const v = await buildResultView(loaded, DEFAULT_RESULT_QUERY);
    expect(v.survivors?.delistedExcluded).toBe(1);
    expect(v.survivors?.totalReturnGapPp).toBeCloseTo((survivors.statistics.totalReturn - full.statistics.totalReturn) * 100, 9);
    // The delisted company lost money while held: leaving it out flatters the result.
    expect(v.survivors?.totalReturnGapPp).toBeGreaterThan(0);
    expect(v.curve[0]).toEqual({
      date: full.dates[0],
      equity: full.equity[0],
      benchmark: full.benchmark[0],
      drawdown: 0,
      survivors: survivors.equity[0],
    });
    expect((await buildResultView(withoutSurvivors, DEFAULT_RESULT_QUERY)).survivors).toBeNull();
  });
});

describe('result CSV tables', () => {
  it('writes every day of the curves with the survivors column', () => {
    const t = curvesTable(loaded.light);
    expect(t.header).toEqual(['date', 'equity', 'benchmark', 'drawdown', 'survivors_equity']);
    expect(t.rows).toHaveLength(full.dates.length);
    expect(t.rows.at(-1)).toEqual([
      full.dates.at(-1),
      full.equity.at(-1),
      full.benchmark.at(-1),
      full.drawdown.at(-1),
      survivors.equity.at(-1),
    ]);
    expect(curvesTable(withoutSurvivors.light).rows[0][4]).toBeNull();
  });

  it('writes one row per holding, trade and year', async () => {
    const h = holdingsTable(loaded, 7);
    expect(h.header).toEqual(['rebalance', 'signal_date', 'trade_date', 'permaticker', 'ticker', 'weight', 'rank', 'pe_ttm']);
    const holdings = await rowsOf(h);
    expect(holdings).toHaveLength(full.rebalances.reduce((n, r) => n + r.holdings.length, 0));
    expect(holdings[0]).toEqual([1, full.rebalances[0].signalDate, full.rebalances[0].tradeDate, 3, 'GONE', 0.5, 1, 8]);
    const trades = await rowsOf(tradesTable(loaded, 7));
    expect(trades).toHaveLength(full.trades.length);
    expect(trades.some((r) => r[4] === 'delisted')).toBe(true);
    const m = monthlyTable(loaded.light);
    expect(m.header).toHaveLength(14);
    expect(m.rows.map((r) => r[0])).toEqual(full.statistics.monthlyReturns.map((r) => r.year));
    const monthly = resultTable(loaded, 'monthly');
    expect(monthly.header).toEqual(m.header);
    expect(await rowsOf(monthly)).toEqual(m.rows);
  });
});
