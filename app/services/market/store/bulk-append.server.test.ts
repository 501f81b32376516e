import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendRows, type ColumnSpec } from './bulk-append.server';

// appendRows writes many rows through typed staging columns and few through DuckDB's vectors:
// both ways must store the same values, NULLs included, in the same order, and refuse the same
// bad rows with the same message.

type Row = { id: number; name: string | null; value: number | null; day: string | null; flag: boolean | null; tag: string };

const COLUMNS: ColumnSpec<Row>[] = [
  { name: 'id', kind: 'integer', get: (r) => r.id },
  { name: 'name', kind: 'varchar', get: (r) => r.name },
  { name: 'value', kind: 'double', get: (r) => r.value },
  { name: 'day', kind: 'date', get: (r) => r.day },
  { name: 'flag', kind: 'boolean', get: (r) => r.flag },
  { name: 'tag', kind: 'varchar', get: (r) => r.tag },
];
const DDL = (t: string) =>
  `CREATE OR REPLACE TABLE ${t} (id INTEGER NOT NULL, name VARCHAR, value DOUBLE, day DATE, flag BOOLEAN, tag VARCHAR NOT NULL)`;

/** Rows with every kind of value: texts repeated and unique, NULLs in every nullable column, days before 1970. */
function rows(n: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({
    id: n - i,
    name: i % 7 === 0 ? null : i % 3 === 0 ? `unique ${i} é ✓` : ['Alpha', 'Beta', ''][i % 3],
    value: i % 5 === 0 ? null : i / 8 - 300.125,
    day: i % 11 === 0 ? null : `${1960 + (i % 80)}-0${1 + (i % 9)}-1${i % 10}`,
    flag: i % 4 === 0 ? null : i % 2 === 0,
    tag: `t${i % 13}`,
  }));
}

let instance: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

const stored = async (t: string) =>
  (await conn.runAndReadAll(`SELECT id, name, value, strftime(day, '%Y-%m-%d') AS day, flag, tag FROM ${t}`)).getRowObjectsJson();

describe('appendRows', () => {
  it('stores many rows (typed staging columns) exactly as it stores them a chunk at a time', async () => {
    const data = rows(20_000);
    await conn.run(DDL('many'));
    await appendRows(conn, 'many', COLUMNS, data);
    // The same rows in pieces below the staging threshold: DuckDB's vectors, value by value.
    await conn.run(DDL('few'));
    for (let i = 0; i < data.length; i += 1000) await appendRows(conn, 'few', COLUMNS, data.slice(i, i + 1000));
    const many = await stored('many');
    expect(many).toHaveLength(20_000);
    expect(many).toEqual(await stored('few'));
    expect(many[0]).toEqual({ id: 20_000, name: null, value: null, day: null, flag: null, tag: 't0' });
    expect(many[3]).toEqual({ id: 19_997, name: 'unique 3 é ✓', value: -299.75, day: '1963-04-13', flag: false, tag: 't3' });
    expect(many[2]).toMatchObject({ name: '', flag: true });
  });

  it('refuses a bad value with its row number, and a NULL where the table forbids one, storing nothing', async () => {
    await conn.run(DDL('bad'));
    const data = rows(10_000);
    data[9_000] = { ...data[9_000], value: Number.POSITIVE_INFINITY };
    await expect(appendRows(conn, 'bad', COLUMNS, data, 'things')).rejects.toThrow(
      'things row 9001: value must be a finite number, got Infinity',
    );
    data[9_000] = { ...data[9_000], value: 1, day: '2020-02-30x' };
    await expect(appendRows(conn, 'bad', COLUMNS, data)).rejects.toThrow(/bad row 9001: Not a YYYY-MM-DD date/);
    data[9_000] = { ...data[9_000], day: '2020-02-03', id: 1.5 };
    await expect(appendRows(conn, 'bad', COLUMNS, data)).rejects.toThrow('bad row 9001: id must be an integer, got 1.5');
    data[9_000] = { ...data[9_000], id: 1, tag: null as unknown as string };
    await expect(appendRows(conn, 'bad', COLUMNS, data)).rejects.toThrow(/NOT NULL/);
    expect(await stored('bad')).toEqual([]);
    // Inside a transaction (as the market writer appends) the same refusal, not a later statement's.
    await conn.run('BEGIN TRANSACTION');
    await expect(appendRows(conn, 'bad', COLUMNS, data)).rejects.toThrow(/NOT NULL/);
    await conn.run('ROLLBACK');
    expect(await stored('bad')).toEqual([]);
  });
});
