import { describe, expect, it } from 'vitest';
import { toCsv } from '../http/csv';
import { roundForExport } from '../http/numbers';
import { resultsTable } from './csv';

describe('screener CSV', () => {
  it('writes values at the page precision, percentages as percents', () => {
    const table = resultsTable(
      {
        columns: ['market_cap', 'ret_12m', 'pe_ttm', 'volume'],
        rows: [
          {
            permaticker: 1,
            ticker: 'AAA',
            name: 'A, Inc.',
            sector: 'Energy',
            industry: null,
            exchange: 'NYSE',
            rank: null,
            values: { market_cap: 3874225282.6800003, ret_12m: 0.12345, pe_ttm: 0.1 + 0.2, volume: 1234.6 },
          },
        ],
      } as never,
      { rank: false },
    );
    expect(toCsv(table).split('\r\n')).toEqual([
      'ticker,name,sector,industry,exchange,Market cap,Return (12 months) (%),P/E (TTM),Volume',
      'AAA,"A, Inc.",Energy,n/a,NYSE,3874225282.68,12.35,0.3,1235',
      '',
    ]);
  });

  it('rounds without noise', () => {
    expect(roundForExport(1.005, 2)).toBe(1.01);
    expect(roundForExport(-1.005, 2)).toBe(-1.01);
    expect(roundForExport(-0.001, 2)).toBe(0);
    expect(roundForExport(Number.NaN, 2)).toBeNull();
    expect(roundForExport(0.07 * 100, 2)).toBe(7);
  });
});
