import { describe, expect, it } from 'vitest';
import { codeRows, concatCodedRows, type CodedRows, type ColumnSpec } from './typed-columns';

// Rows coded as typed columns must decode to the rows' values, however they were split and joined.

type Row = { id: number; name: string | null; day: string | null; value: number | null; flag: boolean | null };
const COLUMNS: ColumnSpec<Row>[] = [
  { name: 'id', kind: 'integer', get: (r) => r.id },
  { name: 'name', kind: 'varchar', get: (r) => r.name },
  { name: 'day', kind: 'date', get: (r) => r.day },
  { name: 'value', kind: 'double', get: (r) => r.value },
  { name: 'flag', kind: 'boolean', get: (r) => r.flag },
];

const rows: Row[] = Array.from({ length: 50 }, (_, i) => ({
  id: i - 25,
  name: i % 6 === 0 ? null : ['x', 'y', `only ${i}`][i % 3],
  day: i % 5 === 0 ? null : `1969-12-${String(1 + (i % 31)).padStart(2, '0')}`,
  value: i % 7 === 0 ? null : i * 0.1,
  flag: i % 4 === 0 ? null : i % 2 === 1,
}));

/** The rows coded rows stand for, dates as epoch days. */
function decoded(c: CodedRows): unknown[][] {
  return Array.from({ length: c.rows }, (_, r) => {
    let text = 0;
    return c.kinds.map((kind, k) => {
      const col = c.columns[k];
      const v = col.values[r] as number;
      if (kind === 'varchar') return v === 0 ? null : c.texts[text++][v - 1];
      if ('nulls' in col && col.nulls?.[r] === 1) return null;
      if (kind === 'double' || kind === 'boolean') return Number.isNaN(v) ? null : kind === 'boolean' ? v !== 0 : v;
      return v;
    });
  });
}

describe('coded rows', () => {
  it('decode to the rows, NULLs and days before 1970 included', () => {
    const all = decoded(codeRows(COLUMNS, rows, 'things'));
    expect(all[0]).toEqual([-25, null, null, null, null]);
    expect(all[1]).toEqual([-24, 'y', -30, 0.1, true]);
    expect(all[2]).toEqual([-23, 'only 2', -29, 0.2, false]);
  });

  it('joined from parts, decode to the rows of the whole, with each text coded once', () => {
    const whole = codeRows(COLUMNS, rows, 'things');
    const joined = concatCodedRows([rows.slice(0, 7), rows.slice(7, 8), rows.slice(8)].map((part) => codeRows(COLUMNS, part, 'things')));
    expect(joined.rows).toBe(50);
    expect(decoded(joined)).toEqual(decoded(whole));
    expect(joined.texts[0].slice().sort()).toEqual(whole.texts[0].slice().sort());
  });

  it('refuse a bad value with its row, and an integer the store cannot hold', () => {
    expect(() => codeRows(COLUMNS, [...rows.slice(0, 3), { ...rows[3], value: Number.NaN }], 'things')).toThrow(
      'things row 4: value must be a finite number, got NaN',
    );
    expect(() => codeRows(COLUMNS, [{ ...rows[0], id: 2 ** 31 }], 'things')).toThrow('things row 1: id is out of range, got 2147483648');
    expect(() => codeRows(COLUMNS, [{ ...rows[0], day: '2020-1-1' }], 'things')).toThrow(/things row 1: Not a YYYY-MM-DD date/);
  });
});
