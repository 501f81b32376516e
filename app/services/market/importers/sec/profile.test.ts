import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FiscalCalendar, fiscalYearEnds, fiscalYearLabel } from './fiscal-calendar';
import { parseCompanyTickers } from './parse-company-tickers';
import { isSubmissionsOverflow, parseSubmissions } from './parse-submissions';
import { sectorForSic } from './sic-sector';

describe('fiscal calendar', () => {
  it('keeps one fiscal year end per year, the best supported', () => {
    const ends = fiscalYearEnds(
      new Map([
        ['2021-09-25', 40],
        ['2021-10-31', 1],
        ['2022-09-24', 35],
        ['2020-09-26', 12],
      ]),
    );
    expect(ends).toEqual(['2020-09-26', '2021-09-25', '2022-09-24']);
  });

  it('places quarters of a 52/53-week year and extrapolates past the last known year end', () => {
    const calendar = new FiscalCalendar(['2021-09-25', '2022-09-24']);
    expect(calendar.position('2021-12-25')).toMatchObject({ quarter: 1, year: { label: 2022, start: '2021-09-26', end: '2022-09-24' } });
    expect(calendar.position('2022-09-24')).toMatchObject({ quarter: 4 });
    expect(calendar.position('2023-07-01')).toMatchObject({ quarter: 3, year: { label: 2023 } });
    expect(calendar.position('2020-12-26')).toMatchObject({ quarter: 1, year: { label: 2021 } });
    expect(calendar.position('2022-11-10', 0.1)).toBeNull();
  });

  it('names years that end in the first days of January after the year before', () => {
    expect(fiscalYearLabel('2022-01-02')).toBe(2021);
    expect(fiscalYearLabel('2024-01-28')).toBe(2024);
  });
});

describe('SEC profiles', () => {
  it('maps SIC codes onto sectors', () => {
    expect(sectorForSic(3571)).toBe('Information Technology');
    expect(sectorForSic(6798)).toBe('Real Estate');
    expect(sectorForSic(2834)).toBe('Health Care');
    expect(sectorForSic(null)).toBeNull();
  });

  it('reads both company ticker list formats', () => {
    const fields = parseCompanyTickers(
      { fields: ['cik', 'name', 'ticker', 'exchange'], data: [[320193, 'Apple Inc.', 'AAPL', 'Nasdaq']] },
      'x',
    );
    const plain = parseCompanyTickers({ 0: { cik_str: 320193, ticker: 'aapl', title: 'Apple Inc.' } }, 'y');
    expect(fields).toEqual([{ cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: 'Nasdaq' }]);
    expect(plain).toEqual([{ cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: null }]);
    expect(() => parseCompanyTickers({ fields: ['cik', 'ticker'], data: [['x', 'AAPL']] }, 'z')).toThrow(
      /z: data\[0\]: needs a numeric CIK/,
    );
  });

  const SUB = path.resolve('../shared/data/fundamentals/sec/submissions');
  it.skipIf(!existsSync(SUB))('reads real submissions: Apple on Nasdaq, CARBO delisted, overflow pages recognised', () => {
    const read = (f: string) => JSON.parse(readFileSync(path.join(SUB, f), 'utf8')) as unknown;
    expect(parseSubmissions(read('CIK0000320193.json'), 'a')).toMatchObject({
      cik: '0000320193',
      ticker: 'AAPL',
      exchange: 'Nasdaq',
      sic: 3571,
      sector: 'Information Technology',
      industry: 'Electronic Computers',
      isDelisted: false,
    });
    expect(parseSubmissions(read('CIK0001009672.json'), 'c')).toMatchObject({ ticker: null, exchange: null, isDelisted: true });
    expect(isSubmissionsOverflow(read('CIK0001009672-submissions-001.json'))).toBe(true);
    expect(isSubmissionsOverflow(read('CIK0001009672.json'))).toBe(false);
  });
});
