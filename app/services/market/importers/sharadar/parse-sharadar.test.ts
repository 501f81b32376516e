import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportFileError } from '../../store/records';
import { headerOf } from '../csv-table';
import { parseActions } from './parse-actions';
import { parseSep } from './parse-sep';
import { parseSf1 } from './parse-sf1';
import { parseTickers } from './parse-tickers';
import { tableOf } from './tables';
import { tickerHistory } from './ticker-history';

const FIXTURES = path.resolve('tests/fixtures/sharadar');
const text = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const tickers = () => parseTickers(text('SHARADAR_TICKERS.csv'), 'SHARADAR_TICKERS.csv');

const thrown = (run: () => unknown): ImportFileError => {
  try {
    run();
  } catch (e) {
    if (e instanceof ImportFileError) return e;
    throw e;
  }
  throw new Error('expected an ImportFileError');
};

describe('Sharadar tables', () => {
  it('are told apart by their header', () => {
    expect(['TICKERS', 'SEP', 'SF1', 'ACTIONS'].map((t) => tableOf(headerOf(text(`SHARADAR_${t}.csv`))))).toEqual([
      'TICKERS',
      'SEP',
      'SF1',
      'ACTIONS',
    ]);
    expect(tableOf(['date', 'open', 'close'])).toBeNull();
  });

  it('TICKERS: one security per permaticker, the SEP row preferred, CIK from the filings link', () => {
    const t = tickers();
    expect(t.securities.map((s) => [s.permaticker, s.ticker, s.isDelisted])).toEqual([
      [120568, 'LEH', true],
      [194817, 'META', false],
      [199059, 'AAPL', false],
    ]);
    expect(t.securities[2]).toMatchObject({
      name: 'Apple Inc',
      exchange: 'NASDAQ',
      sector: 'Technology',
      cik: '0000320193',
      firstPriceDate: '1986-01-01',
      source: 'sharadar',
    });
    expect(t.securities[0].name).toBe('Lehman Brothers Holdings, Inc.');
    expect(t.byRelatedTicker.get('FB')).toBe(194817);
  });

  it('SEP: split-adjusted OHLC, traded close and closeadj as the total-return index', () => {
    const prices = parseSep(text('SHARADAR_SEP.csv'), 'SEP', tickers().byTicker);
    const aapl = prices.filter((p) => p.permaticker === 199059);
    expect(aapl.map((p) => [p.date, p.close, p.closeUnadj, p.tri])).toEqual([
      ['2020-08-27', 125.01, 500.04, 122.93],
      ['2020-08-28', 124.81, 499.23, 122.73],
      ['2020-08-31', 129.04, 129.04, 126.89],
      ['2020-09-01', 134.18, 134.18, 131.95],
    ]);
  });

  it('SF1: ARQ → quarters and ARY → years filed on datekey, ART/MR* skipped, capex as a payment', () => {
    const { facts, skippedDimensions } = parseSf1(text('SHARADAR_SF1.csv'), 'SF1', tickers().byTicker);
    expect(Object.fromEntries(skippedDimensions)).toEqual({ ART: 1, MRQ: 1 });
    const revenue = facts.filter((f) => f.concept === 'revenue');
    expect(revenue.map((f) => [f.fiscalYear, f.fiscalPeriod, f.periodStart, f.periodEnd, f.filed, f.value])).toEqual([
      [2023, 'Q1', '2022-09-25', '2022-12-31', '2023-02-03', 117_154e6],
      [2023, 'Q2', '2023-01-01', '2023-04-01', '2023-05-05', 94_836e6],
      [2023, 'Q3', '2023-04-02', '2023-07-01', '2023-08-04', 81_797e6],
      [2023, 'Q4', '2023-07-02', '2023-09-30', '2023-11-03', 89_498e6],
      [2022, 'FY', '2021-09-25', '2022-09-24', '2022-10-28', 394_328e6],
      [2023, 'FY', '2022-09-25', '2023-09-30', '2023-11-03', 383_285e6],
    ]);
    const quarters = revenue.filter((f) => f.fiscalYear === 2023 && f.fiscalPeriod !== 'FY').reduce((s, f) => s + f.value, 0);
    expect(quarters).toBe(383_285e6);
    expect(facts.find((f) => f.concept === 'capex' && f.fiscalPeriod === 'FY' && f.fiscalYear === 2023)!.value).toBe(10_959e6);
    // The year-end balance sheet is stored once (from the quarter row), labelled FY.
    const assets = facts.filter((f) => f.concept === 'total_assets' && f.periodEnd === '2023-09-30');
    expect(assets).toEqual([expect.objectContaining({ value: 352_583e6, fiscalPeriod: 'FY', periodStart: null, filed: '2023-11-03' })]);
  });

  it('ACTIONS: dividends, splits, bankruptcy, delisting and one row per ticker change', () => {
    const t = tickers();
    const { actions, skipped } = parseActions(text('SHARADAR_ACTIONS.csv'), 'ACTIONS', t.byTicker, t.byRelatedTicker);
    expect(actions.map((a) => [a.permaticker, a.date, a.action, a.value, a.detail])).toEqual([
      [199059, '2023-08-11', 'dividend', 0.24, null],
      [199059, '2020-08-31', 'split', 4, null],
      [194817, '2022-06-09', 'ticker_change', null, 'from FB'],
      [120568, '2008-09-15', 'bankruptcy', null, null],
      [120568, '2008-09-17', 'delisting', null, null],
    ]);
    expect(Object.fromEntries(skipped)).toEqual({ tickerchangeto: 1, acquisitionof: 1 });
    const meta = t.securities.find((s) => s.ticker === 'META')!;
    expect(
      tickerHistory(
        meta,
        actions.filter((a) => a.permaticker === meta.permaticker),
      ),
    ).toEqual([
      { permaticker: 194817, ticker: 'FB', startDate: '2012-05-18', endDate: '2022-06-08' },
      { permaticker: 194817, ticker: 'META', startDate: '2022-06-09', endDate: null },
    ]);
  });
});

describe('hostile Sharadar files', () => {
  const byTicker = () => tickers().byTicker;
  const sepHeader = 'ticker,date,open,high,low,close,volume,closeadj,closeunadj,lastupdated\n';

  it('rejects a price row of a ticker TICKERS does not know', () => {
    const e = thrown(() =>
      parseSep(`${sepHeader}AAPL,2020-08-27,1,1,1,1,1,1,1,2024-01-05\nZZZZ,2020-08-27,1,1,1,1,1,1,1,2024-01-05\n`, 'SEP.csv', byTicker()),
    );
    expect([e.file, e.line]).toEqual(['SEP.csv', 3]);
    expect(e.reason).toMatch(/unknown ticker "ZZZZ"/);
  });

  it.each([
    ['high < low', 'AAPL,2020-08-27,10,9,11,10,1,10,10,2024-01-05', /high 9 is below low 11/],
    ['a negative price', 'AAPL,2020-08-27,10,11,9,-10,1,10,10,2024-01-05', /close -10 is not a positive price/],
    ['a broken row', 'AAPL,2020-08-27,10,11', /broken CSV/],
    ['text for a number', 'AAPL,2020-08-27,10,11,9,ten,1,10,10,2024-01-05', /close "ten" is not a number/],
  ])('rejects %s in SEP with its line', (_, row, message) => {
    const e = thrown(() => parseSep(`${sepHeader}${row}\n`, 'SEP.csv', byTicker()));
    expect(e.line).toBe(2);
    expect(e.reason).toMatch(message);
  });

  it('rejects SF1 without its key columns, and unknown dimensions', () => {
    expect(thrown(() => parseSf1('ticker,calendardate,revenue\nAAPL,2023-09-30,1\n', 'SF1.csv', byTicker())).reason).toMatch(
      /missing column\(s\) dimension, datekey, reportperiod/,
    );
    const e = thrown(() =>
      parseSf1(
        'ticker,dimension,calendardate,datekey,reportperiod,revenue\nAAPL,XYZ,2023-09-30,2023-11-03,2023-09-30,1\n',
        'SF1.csv',
        byTicker(),
      ),
    );
    expect([e.line, e.reason]).toEqual([2, expect.stringMatching(/dimension "XYZ"/)]);
  });

  it('rejects a TICKERS row with a malformed flag', () => {
    const e = thrown(() => parseTickers('table,permaticker,ticker,name,exchange,isdelisted\nSEP,1,AAA,A Inc,NYSE,maybe\n', 'TICKERS.csv'));
    expect([e.line, e.reason]).toEqual([2, expect.stringMatching(/isdelisted "maybe"/)]);
  });
});
