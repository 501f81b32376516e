import { describe, expect, it } from 'vitest';
import { alignSeries, alignSources, companyList, parseView, viewQuery } from './data-browser';

describe('data browser view', () => {
  it('parses the URL with defaults and drops duplicate companies', () => {
    const r = parseView(new URLSearchParams('compare=3,2,3&scale=log&from=2020-01-01'));
    expect(r).toEqual({
      ok: true,
      view: { compare: [3, 2], add: null, scale: 'log', mode: 'latest', from: '2020-01-01', to: null, asOf: null },
    });
  });
  it('rejects bad dates, inverted ranges and non-numeric companies', () => {
    expect(parseView(new URLSearchParams('from=2020-02-30')).ok).toBe(false);
    expect(parseView(new URLSearchParams('from=2021-01-01&to=2020-01-01')).ok).toBe(false);
    expect(parseView(new URLSearchParams('compare=AAPL')).ok).toBe(false);
    expect(parseView(new URLSearchParams('scale=cubic')).ok).toBe(false);
  });
  it('keeps at most ten companies, the main one first', () => {
    const r = companyList(1, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1]);
    expect(r.list).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.dropped).toBe(2);
  });
  it('round-trips through the query string, defaults left out', () => {
    expect(viewQuery({ compare: [2, 3], scale: 'linear', mode: 'latest', from: null, to: null, asOf: null })).toBe('?compare=2%2C3');
    const q = viewQuery({ compare: [], scale: 'log', mode: 'first_reported', from: '2020-01-01', to: '2021-01-01', asOf: '2022-01-01' });
    const back = parseView(new URLSearchParams(q.slice(1)));
    expect(back).toMatchObject({
      ok: true,
      view: { scale: 'log', mode: 'first_reported', from: '2020-01-01', to: '2021-01-01', asOf: '2022-01-01' },
    });
  });
});

describe('alignSeries', () => {
  it('carries each company’s last value forward to every date', () => {
    const p = (date: string, value: number | null) => ({ date, value, filed: null, accession: null });
    const rows = alignSeries([
      { permaticker: 1, ticker: 'A', points: [p('2024-01-01', 1), p('2024-04-01', 2)] },
      { permaticker: 2, ticker: 'B', points: [p('2024-02-01', 10)] },
    ]);
    expect(rows).toEqual([
      { date: '2024-01-01', values: [1, null] },
      { date: '2024-02-01', values: [1, 10] },
      { date: '2024-04-01', values: [2, 10] },
    ]);
  });

  it('names the filing each carried value rests on, and none for price-only values', () => {
    const series = [
      {
        permaticker: 1,
        ticker: 'A',
        points: [
          { date: '2024-01-01', value: 1, filed: '2023-12-20', accession: '0000000001-23-000001' },
          { date: '2024-04-01', value: 2, filed: '2024-03-30', accession: null },
        ],
      },
      { permaticker: 2, ticker: 'B', points: [{ date: '2024-02-01', value: 10, filed: null, accession: null }] },
    ];
    expect(alignSources(series)).toEqual([
      [{ filed: '2023-12-20', accession: '0000000001-23-000001' }, null],
      [{ filed: '2023-12-20', accession: '0000000001-23-000001' }, null],
      [{ filed: '2024-03-30', accession: null }, null],
    ]);
  });
});
