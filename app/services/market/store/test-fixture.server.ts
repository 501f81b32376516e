import type { CorporateActionRecord, FactRecord, PriceRecord, SecurityRecord, TickerPeriodRecord } from './records';
import { withMarketWriter } from './writer.server';

// A tiny hand-made market for tests of the read services and API routes: ticker changes, a
// recycled ticker, delisted holders, a split and two filings.

const security = (permaticker: number, ticker: string, name: string, extra: Partial<SecurityRecord> = {}): SecurityRecord => ({
  permaticker,
  ticker,
  name,
  exchange: 'NYSE',
  category: 'Domestic Common Stock',
  sector: 'Industrials',
  industry: 'Machinery',
  cik: null,
  firstPriceDate: '2020-01-02',
  lastPriceDate: '2020-01-07',
  isDelisted: false,
  source: 'fixture',
  ...extra,
});

export const FIXTURE_SECURITIES: SecurityRecord[] = [
  security(1, 'ACME', 'Acme Widgets Inc.', { cik: '0000000042' }),
  security(2, 'ACM', 'Acme Mining Corp.', { sector: 'Materials' }),
  security(3, 'OLD', 'Old Acme Holdings', { isDelisted: true, lastPriceDate: '2012-05-01', firstPriceDate: '2000-01-03' }),
  security(5, 'RCY', 'Recycled First Co.', { isDelisted: true, firstPriceDate: '2005-01-03', lastPriceDate: '2010-06-30' }),
  security(6, 'RCY', 'Recycled Second Co.', { firstPriceDate: '2015-01-02' }),
  security(7, 'GONE', 'Gone Early Inc.', { isDelisted: true, lastPriceDate: '2008-03-03' }),
  security(8, 'GONE', 'Gone Later Inc.', { isDelisted: true, lastPriceDate: '2014-03-03' }),
  security(9, 'DMO', 'Demo Dynamics Inc.', { exchange: 'DEMO-NYSE', isDemo: true, cik: '9900000009' }),
];

export const FIXTURE_TICKERS: TickerPeriodRecord[] = [
  { permaticker: 1, ticker: 'ACMW', startDate: '2010-01-04', endDate: '2014-12-31' },
  { permaticker: 1, ticker: 'ACME', startDate: '2015-01-02', endDate: null },
  { permaticker: 5, ticker: 'RCY', startDate: '2005-01-03', endDate: '2010-06-30' },
  { permaticker: 6, ticker: 'RCY', startDate: '2015-01-02', endDate: null },
];

const p = (date: string, close: number, closeUnadj: number, tri: number): PriceRecord => ({
  permaticker: 1,
  date,
  open: close,
  high: close * 1.01,
  low: close * 0.99,
  close,
  volume: 1000,
  closeUnadj,
  tri,
});

// A 2-for-1 split on 2020-01-06: as traded 100 -> 52, adjusted (as of the split) 50 -> 52.
export const FIXTURE_PRICES: PriceRecord[] = [
  p('2020-01-02', 50, 100, 1),
  p('2020-01-03', 51, 102, 1.02),
  p('2020-01-06', 52, 52, 1.04),
  p('2020-01-07', 54, 54, 1.08),
];

export const FIXTURE_ACTIONS: CorporateActionRecord[] = [
  { permaticker: 1, date: '2015-01-02', action: 'ticker_change', value: null, detail: 'ACME', source: 'fixture' },
  { permaticker: 1, date: '2020-01-06', action: 'split', value: 2, detail: '2-for-1', source: 'fixture' },
];

const fact = (permaticker: number, concept: FactRecord['concept'], value: number, f: Partial<FactRecord>): FactRecord => ({
  permaticker,
  concept,
  value,
  unit: 'USD',
  periodStart: null,
  periodEnd: '2019-09-30',
  fiscalYear: 2019,
  fiscalPeriod: 'Q3',
  form: '10-Q',
  filed: '2019-11-01',
  accession: '0000000042-19-000011',
  source: 'fixture',
  sourceTag: null,
  ...f,
});

export const FIXTURE_FACTS: FactRecord[] = [
  fact(1, 'revenue', 10, { periodStart: '2019-07-01' }),
  fact(1, 'cash', 5, {}),
  fact(1, 'revenue', 12, {
    periodStart: '2019-10-01',
    periodEnd: '2019-12-31',
    fiscalPeriod: 'Q4',
    form: '10-K',
    filed: '2020-02-20',
    accession: '0000000042-20-000003',
  }),
  fact(1, 'revenue', 40, {
    periodStart: '2019-01-01',
    periodEnd: '2019-12-31',
    fiscalPeriod: 'FY',
    form: '10-K',
    filed: '2020-02-20',
    accession: '0000000042-20-000003',
  }),
  fact(9, 'revenue', 7, { accession: '9900000009-19-000001' }),
];

export async function writeMarketFixture(file: string): Promise<void> {
  await withMarketWriter(file, {}, async (w) => {
    await w.transaction(async (tx) => {
      await tx.upsertSecurities(FIXTURE_SECURITIES);
      for (const permaticker of [1, 5, 6])
        await tx.replaceTickerHistory(
          permaticker,
          FIXTURE_TICKERS.filter((t) => t.permaticker === permaticker),
        );
      await tx.replacePrices([1], FIXTURE_PRICES);
      await tx.replaceActions([1], 'fixture', FIXTURE_ACTIONS);
      await tx.replaceFacts([1, 9], 'fixture', FIXTURE_FACTS);
    });
    await w.finish('fixture');
  });
}
