import {
  BOOLEAN,
  DATE,
  DOUBLE,
  DuckDBDataChunk,
  DuckDBDateValue,
  INTEGER,
  LIST,
  listValue,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBVector,
} from '@duckdb/node-api';
import { checkedValue, codeRows, type CodedRows, type ColumnKind, type ColumnSpec, type TypedColumn } from './typed-columns';

export type { ColumnSpec, TypedColumn } from './typed-columns';

// Bulk loading through the DuckDB appender, one data chunk (2,048 rows) at a time: typed
// vectors are filled in JS and copied into DuckDB in one call each, which is about ten times
// faster than appending value by value or INSERT ... VALUES (measured: 5M price rows in ~2 s
// into a table without a key; the prices primary key roughly doubles that).

const TYPES: Record<ColumnKind, DuckDBType> = { integer: INTEGER, double: DOUBLE, date: DATE, varchar: VARCHAR, boolean: BOOLEAN };
const CHUNK_ROWS = 2048;

const dateValues = new Map<number, DuckDBDateValue>();
/** A row's value as the appender's vectors take it (a date as a DuckDBDateValue). */
function convert(kind: ColumnKind, column: string, value: unknown): unknown {
  const v = checkedValue(kind, column, value);
  if (kind !== 'date' || v === null) return v;
  let date = dateValues.get(v as number);
  if (!date) {
    date = new DuckDBDateValue(v as number);
    if (dateValues.size < 100_000) dateValues.set(v as number, date);
  }
  return date;
}

/**
 * Appends rows to `table`; `columns` must list every column of the table in order. Errors name
 * the row as `label row N` (label defaults to the table).
 */
export async function appendRows<R>(
  connection: DuckDBConnection,
  table: string,
  columns: ColumnSpec<R>[],
  rows: readonly R[],
  label = table,
): Promise<void> {
  if (rows.length === 0) return;
  if (rows.length >= CODED_MIN_ROWS) return appendCodedRows(connection, table, codeRows(columns, rows, label));
  const appender = await connection.createAppender(table);
  try {
    if (appender.columnCount !== columns.length) {
      throw new Error(`Table ${table} has ${appender.columnCount} columns, the writer knows ${columns.length}.`);
    }
    const chunk = DuckDBDataChunk.create(
      columns.map((c) => TYPES[c.kind]),
      CHUNK_ROWS,
    );
    for (let offset = 0; offset < rows.length; offset += CHUNK_ROWS) {
      const count = Math.min(CHUNK_ROWS, rows.length - offset);
      chunk.rowCount = count;
      for (let c = 0; c < columns.length; c++) {
        const { kind, name, get } = columns[c];
        const vector = chunk.getColumnVector(c) as DuckDBVector;
        for (let r = 0; r < count; r++) {
          const row = rows[offset + r];
          let value: unknown;
          try {
            value = convert(kind, name, get(row));
          } catch (e) {
            throw new Error(`${label} row ${offset + r + 1}: ${(e as Error).message}`);
          }
          (vector.setItem as (i: number, v: unknown) => void)(r, value);
        }
        vector.flush();
      }
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

/** From this many rows on, appendRows codes them and appends them with appendCodedRows. */
const CODED_MIN_ROWS = 4 * CHUNK_ROWS;
/** The temporary table appendCodedRows stages rows in (one connection runs one statement at a time). */
const CODED_STAGING = 'quarry_coded_rows';

/**
 * Appends rows already coded (typed-columns.ts; appendRows codes many rows itself). Setting a string
 * in a DuckDB vector is a native call per value, which made text columns most of a large load's
 * time (the 6,000 × 25 demo's 10.8 million facts, seven text columns each). Coded rows are typed
 * arrays instead, texts as codes: they are appended to a temporary table, a copy per chunk and
 * column, and one INSERT … SELECT moves them into `table`, looking the texts up in lists bound as
 * parameters (codes from 1; 0 is NULL).
 */
export async function appendCodedRows(connection: DuckDBConnection, table: string, coded: CodedRows): Promise<void> {
  if (coded.rows === 0) return;
  let text = 0;
  const selected = coded.kinds.map((kind, k) =>
    // The list in a scalar subquery, made once per statement: as list_extract's argument the bound
    // list was copied per chunk of rows, which made the demo's 40,000 accession numbers a batch
    // cost a third of its INSERT (a 713,000-row batch of facts 954 → 704 ms in a scratch test).
    kind === 'varchar' ? `(SELECT $${++text}::VARCHAR[])[nullif(c${k}, 0)]` : kind === 'boolean' ? `c${k} <> 0` : `c${k}`,
  );
  const definition = coded.columns
    .map((c, k) => `c${k} ${c.kind === 'date' ? 'DATE' : c.kind === 'integer' ? 'INTEGER' : 'DOUBLE'}`)
    .join(', ');
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${CODED_STAGING} (${definition})`);
  try {
    await appendTypedColumns(connection, CODED_STAGING, coded.columns);
    await connection.run(
      `INSERT INTO ${table} SELECT ${selected.join(', ')} FROM ${CODED_STAGING}`,
      coded.texts.map((t) => listValue(t)),
      coded.texts.map(() => LIST(VARCHAR)),
    );
  } finally {
    // In a transaction a failed statement aborts it, and the DROP with it: the rollback removes
    // the table then, and the caller must see the statement's own error, not this one's.
    await connection.run(`DROP TABLE IF EXISTS ${CODED_STAGING}`).catch(() => undefined);
  }
}

type ItemsVector = DuckDBVector & { items?: Int32Array | Float64Array; validity?: { setItemValid(i: number, valid: boolean): void } };

/**
 * Appends equally long typed columns (every column of `table`, in order): numeric vectors are
 * filled with one typed-array copy per chunk instead of a call per value, which is what makes
 * derived tables of millions of values cheap to write.
 */
export async function appendTypedColumns(connection: DuckDBConnection, table: string, columns: readonly TypedColumn[]): Promise<void> {
  const n = columns[0]?.values.length ?? 0;
  if (columns.some((c) => c.values.length !== n)) throw new Error(`appendTypedColumns(${table}): columns of different lengths`);
  if (n === 0) return;
  const appender = await connection.createAppender(table);
  try {
    if (appender.columnCount !== columns.length)
      throw new Error(`Table ${table} has ${appender.columnCount} columns, not ${columns.length}.`);
    const types = columns.map((c) => TYPES[c.kind]);
    for (let offset = 0; offset < n; offset += CHUNK_ROWS) {
      const count = Math.min(CHUNK_ROWS, n - offset);
      // A fresh chunk each time: validity masks (NULLs) must not carry over between chunks.
      const chunk = DuckDBDataChunk.create(types, count);
      chunk.rowCount = count;
      columns.forEach((c, k) => {
        const vector = chunk.getColumnVector(k) as ItemsVector;
        if (c.kind === 'varchar') {
          for (let r = 0; r < count; r++) (vector.setItem as (i: number, v: unknown) => void)(r, c.values[offset + r]);
        } else {
          const src = c.values.subarray(offset, offset + count);
          if (!vector.items || vector.items.length < count) throw new Error(`appendTypedColumns(${table}): no typed vector for ${c.kind}`);
          vector.items.set(src);
          if (c.kind === 'double') for (let r = 0; r < count; r++) if (Number.isNaN(src[r])) vector.validity?.setItemValid(r, false);
          if (c.kind !== 'double' && c.nulls)
            for (let r = 0; r < count; r++) if (c.nulls[offset + r] === 1) vector.validity?.setItemValid(r, false);
        }
        vector.flush();
      });
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}
