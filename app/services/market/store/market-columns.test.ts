import { describe, expect, it } from 'vitest';
import {
  FACT_COLUMNS,
  FactColumnsBuilder,
  priceColumns,
  pricesOfSecurities,
  securityPriceRecords,
  type SecurityPrices,
} from './market-columns';
import type { FactRecord } from './records';
import { codeRows, type CodedRows } from './typed-columns';
import { toEpochDay } from '../../dates';

// Prices built as columns (the demo generator's) must become the same table columns as the same
// prices given as rows, and be refused for what rows would be refused for.

const prices = (permaticker: number, days: string[], close: number[], extra: Partial<SecurityPrices> = {}): SecurityPrices => ({
  permaticker,
  day: Int32Array.from(days, toEpochDay),
  open: Float64Array.from(close, (c) => c - 0.5),
  high: Float64Array.from(close, (c) => c + 1),
  low: Float64Array.from(close, (c) => c - 1),
  close: Float64Array.from(close),
  volume: Float64Array.from(close, () => 1000),
  closeUnadj: Float64Array.from(close, (c) => c * 2),
  tri: Float64Array.from(close, () => Number.NaN),
  ...extra,
});

describe('prices of securities as columns', () => {
  it('gives the columns and ranges the same rows give', () => {
    const a = prices(7, ['2024-01-02', '2024-01-03', '2024-01-05'], [10, 11, 12]);
    const b = prices(3, ['2023-12-29'], [50]);
    const rows = [a, b].flatMap(securityPriceRecords);
    expect(pricesOfSecurities([a, b])).toEqual(priceColumns(rows));
    expect(pricesOfSecurities([a, b]).ranges).toEqual({ perm: [7, 3], first: [a.day[0], b.day[0]], last: [a.day[2], b.day[0]] });
  });

  it('refuses a security given twice, days out of order, a missing close, an infinite value or columns of other lengths', () => {
    const ok = prices(1, ['2024-01-02', '2024-01-03'], [10, 11]);
    expect(() => pricesOfSecurities([ok, prices(1, ['2024-01-04'], [12])])).toThrow('prices: permaticker 1 is given twice');
    expect(() => pricesOfSecurities([prices(2, ['2024-01-03', '2024-01-03'], [10, 11])])).toThrow(
      'prices of permaticker 2: day 2 does not follow day 1',
    );
    expect(() => pricesOfSecurities([prices(2, ['2024-01-03', '2024-01-02'], [10, 11])])).toThrow('day 2 does not follow day 1');
    expect(() => pricesOfSecurities([prices(3, ['2024-01-02'], [Number.NaN])])).toThrow(
      'prices of permaticker 3 row 1: close must be a finite number, got NaN',
    );
    expect(() => pricesOfSecurities([prices(4, ['2024-01-02'], [10], { volume: Float64Array.of(Infinity) })])).toThrow(
      'prices of permaticker 4 row 1: volume must be a finite number, got Infinity',
    );
    expect(() => pricesOfSecurities([prices(5, ['2024-01-02'], [10], { tri: new Float64Array(2) })])).toThrow(
      'prices of permaticker 5: tri has 2 values for 1 days',
    );
    expect(() => pricesOfSecurities([prices(1.5, ['2024-01-02'], [10])])).toThrow('prices: permaticker must be an integer, got 1.5');
  });
});

describe('facts coded a fact at a time', () => {
  /** Every row of coded facts as plain values (texts decoded, NULL as null). */
  const decoded = (c: CodedRows) =>
    Array.from({ length: c.rows }, (_, r) =>
      FACT_COLUMNS.map((spec, k) => {
        const col = c.columns[k];
        const v = col.values[r] as number;
        if (spec.kind === 'varchar')
          return v === 0 ? null : c.texts[FACT_COLUMNS.slice(0, k).filter((x) => x.kind === 'varchar').length][v - 1];
        if ('nulls' in col && col.nulls?.[r] === 1) return null;
        return v;
      }),
    );

  it('codes them as codeRows codes the same facts given as records', () => {
    const b = new FactColumnsBuilder();
    const records: FactRecord[] = [];
    const filing = (permaticker: number, end: string, fiscalYear: number | null, form: string, filed: string, accession: string | null) => {
      b.filing({ permaticker, periodEnd: toEpochDay(end), fiscalYear, form, filed: toEpochDay(filed), accession, source: 'demo' });
      return (
        concept: FactRecord['concept'],
        value: number,
        unit: string,
        start: string | null,
        fiscalPeriod: FactRecord['fiscalPeriod'],
      ) => {
        b.add(concept, value, unit, start === null ? null : toEpochDay(start), fiscalPeriod);
        records.push({
          permaticker,
          concept,
          value,
          unit,
          periodStart: start,
          periodEnd: end,
          fiscalYear,
          fiscalPeriod,
          form,
          filed,
          accession,
          source: 'demo',
          sourceTag: null,
        });
      };
    };
    const q1 = filing(4, '2024-03-31', 2024, '10-Q', '2024-05-02', '0000000004-24-000010');
    q1('revenue', 1_000_000, 'USD', '2024-01-01', 'Q1');
    q1('cash', 50_000, 'USD', null, 'Q1');
    q1('eps_basic', 0.25, 'USD/shares', '2024-01-01', 'Q1');
    const k = filing(9, '2024-12-31', null, '10-K', '2025-02-20', null);
    k('revenue', -3.5, 'USD', '2024-01-01', 'FY');
    k('cash', 0, 'USD', null, null);
    const built = b.finish();
    expect(b.size).toBe(5);
    expect(built.kinds).toEqual(FACT_COLUMNS.map((c) => c.kind));
    expect(decoded(built)).toEqual(decoded(codeRows(FACT_COLUMNS, records, 'facts')));
  });

  it('refuses a fact before its filing, a value that is not a finite number and dates that are not days', () => {
    const b = new FactColumnsBuilder();
    expect(() => b.add('revenue', 1, 'USD', null, 'Q1')).toThrow('facts: a fact added before its filing');
    b.filing({ permaticker: 1, periodEnd: 19_800, fiscalYear: 2024, form: '10-Q', filed: 19_840, accession: 'a', source: 'demo' });
    expect(() => b.add('revenue', Number.NaN, 'USD', null, 'Q1')).toThrow('facts row 1: value must be a finite number, got NaN');
    expect(() => b.add('revenue', Infinity, 'USD', null, 'Q1')).toThrow('value must be a finite number, got Infinity');
    expect(() => b.add('revenue', 1, 'USD', 19_800.5, 'Q1')).toThrow('facts row 1: period_start must be an integer, got 19800.5');
    expect(() =>
      b.filing({ permaticker: 1, periodEnd: 1.5, fiscalYear: 2024, form: null, filed: 2, accession: null, source: 'demo' }),
    ).toThrow('facts: period_end must be an integer, got 1.5');
    expect(b.finish().rows).toBe(0);
  });

  it('grows past its first thousand rows', () => {
    const b = new FactColumnsBuilder();
    b.filing({ permaticker: 1, periodEnd: 19_800, fiscalYear: 2024, form: '10-Q', filed: 19_840, accession: 'a', source: 'demo' });
    for (let i = 0; i < 3000; i++) b.add('revenue', i, 'USD', i % 2 === 0 ? null : 19_700, 'Q1');
    const c = b.finish();
    expect(c.rows).toBe(3000);
    expect(Array.from(c.columns[2].values as Float64Array).slice(2995)).toEqual([2995, 2996, 2997, 2998, 2999]);
    const starts = c.columns[4] as { values: Int32Array; nulls?: Uint8Array };
    expect([starts.nulls?.[2998], starts.nulls?.[2999], starts.values[2999]]).toEqual([1, 0, 19_700]);
  });
});
