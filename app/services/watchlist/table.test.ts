import { describe, expect, it } from 'vitest';
import { snapshotOf } from '../screener/engine/test-universe';
import { toCsv } from '../http/csv';
import { watchlistRows, watchlistTable } from './table';

const { snapshot, securities } = snapshotOf([
  { permaticker: 1, ticker: 'AAA', values: { pe_ttm: 20, price: 10 } },
  { permaticker: 2, ticker: 'BBB', values: { pe_ttm: null, price: 30 } },
  { permaticker: 3, ticker: 'CCC', values: { pe_ttm: 5, price: 20 } },
]);
const meta = new Map(securities.map((s) => [s.permaticker, s]));
const items = [
  { permaticker: 2, note: 'a "quoted", note', addedAt: '2026-01-01T00:00:00.000Z' },
  { permaticker: 1, note: null, addedAt: '2026-01-02T00:00:00.000Z' },
  { permaticker: 3, note: '=cmd()', addedAt: '2026-01-03T00:00:00.000Z' },
  { permaticker: 9, note: null, addedAt: '2026-01-04T00:00:00.000Z' },
];

describe('watchlist table', () => {
  it('sorts by a metric with n/a last, in both directions', () => {
    expect(watchlistRows(items, meta, snapshot, ['pe_ttm'], { key: 'pe_ttm', dir: 'asc' }).map((r) => r.ticker)).toEqual([
      'CCC',
      'AAA',
      '9',
      'BBB',
    ]);
    expect(watchlistRows(items, meta, snapshot, ['pe_ttm'], { key: 'pe_ttm', dir: 'desc' }).map((r) => r.ticker)).toEqual([
      'AAA',
      'CCC',
      '9',
      'BBB',
    ]);
    expect(watchlistRows(items, meta, snapshot, [], { key: 'added_at', dir: 'desc' }).map((r) => r.permaticker)).toEqual([9, 3, 1, 2]);
  });

  it('keeps securities without data (values n/a) and exports a safe CSV', () => {
    const rows = watchlistRows(items, meta, null, ['price'], { key: 'ticker', dir: 'asc' });
    expect(rows.every((r) => r.values.price === null)).toBe(true);
    const csv = toCsv(watchlistTable(watchlistRows(items, meta, snapshot, ['price'], { key: 'ticker', dir: 'asc' }), ['price']));
    expect(csv.split('\r\n')).toEqual([
      'ticker,name,sector,note,added_at,Price',
      '9,,n/a,,2026-01-04T00:00:00.000Z,n/a',
      'AAA,AAA Corp,Technology,,2026-01-02T00:00:00.000Z,10',
      'BBB,BBB Corp,Technology,"a ""quoted"", note",2026-01-01T00:00:00.000Z,30',
      "CCC,CCC Corp,Technology,'=cmd(),2026-01-03T00:00:00.000Z,20",
      '',
    ]);
  });
});
