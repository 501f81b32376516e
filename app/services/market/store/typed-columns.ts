import { toEpochDay, type IsoDate } from '../../dates';

// Rows as typed columns, without DuckDB: checked as the store's appender would check them, and
// built wherever the rows are (a generator thread builds them off the main thread and hands the
// arrays over, bulk-append.server.ts appends them).

export type ColumnKind = 'integer' | 'double' | 'date' | 'varchar' | 'boolean';
export type ColumnSpec<R> = { name: string; kind: ColumnKind; get: (row: R) => unknown };

/** A column of typed values: epoch days for `date`, NaN = NULL for doubles, `nulls` (1 = NULL) for the others. */
export type TypedColumn =
  | { kind: 'integer'; values: Int32Array; nulls?: Uint8Array }
  | { kind: 'date'; values: Int32Array; nulls?: Uint8Array }
  | { kind: 'double'; values: Float64Array }
  | { kind: 'varchar'; values: readonly (string | null)[] };

const dayCache = new Map<string, number>();

/** Epoch day of a `YYYY-MM-DD` date (RangeError otherwise), cached: a load repeats the same few thousand days. */
export function epochDayOf(value: IsoDate): number {
  let day = dayCache.get(value);
  if (day === undefined) {
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new RangeError(`Not a YYYY-MM-DD date: ${String(value)}`);
    day = toEpochDay(value);
    if (dayCache.size < 100_000) dayCache.set(value, day);
  }
  return day;
}

class BadValueError extends Error {
  override name = 'BadValueError';
}

/** A row's value checked for its column's kind: a date as its epoch day, null for NULL. */
export function checkedValue(kind: ColumnKind, column: string, value: unknown): number | string | boolean | null {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value))
        throw new BadValueError(`${column} must be an integer, got ${String(value)}`);
      return value;
    case 'double':
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw new BadValueError(`${column} must be a finite number, got ${String(value)}`);
      return value;
    case 'date':
      return epochDayOf(value as string);
    case 'varchar':
      return String(value);
    case 'boolean':
      return Boolean(value);
  }
}

/**
 * Rows of a table as typed arrays, one per column (`kinds` in the table's order): integers and days
 * as such, doubles and booleans as doubles (NaN for NULL), texts as codes (`integer` columns) into
 * their column's distinct values in `texts` (code k is `texts[t][k - 1]`, 0 is NULL).
 */
export type CodedRows = { rows: number; kinds: ColumnKind[]; columns: TypedColumn[]; texts: string[][] };

/** `rows` as CodedRows; a bad value throws `label row N: …`. */
export function codeRows<R>(columns: readonly ColumnSpec<R>[], rows: readonly R[], label: string): CodedRows {
  const n = rows.length;
  const coded: TypedColumn[] = [];
  const texts: string[][] = [];
  for (const { kind, name, get } of columns) {
    const at = (r: number) => {
      try {
        return checkedValue(kind, name, get(rows[r]));
      } catch (e) {
        throw new Error(`${label} row ${r + 1}: ${(e as Error).message}`);
      }
    };
    if (kind === 'varchar') {
      const codes = new Int32Array(n);
      const known = new Map<string, number>();
      for (let r = 0; r < n; r++) {
        const v = at(r) as string | null;
        if (v === null) continue;
        let code = known.get(v);
        if (code === undefined) known.set(v, (code = known.size + 1));
        codes[r] = code;
      }
      texts.push([...known.keys()]);
      coded.push({ kind: 'integer', values: codes });
    } else if (kind === 'integer' || kind === 'date') {
      const values = new Int32Array(n);
      let nulls: Uint8Array | undefined;
      for (let r = 0; r < n; r++) {
        const v = at(r) as number | null;
        if (v === null) (nulls ??= new Uint8Array(n))[r] = 1;
        else if (v < -(2 ** 31) || v >= 2 ** 31) throw new Error(`${label} row ${r + 1}: ${name} is out of range, got ${v}`);
        else values[r] = v;
      }
      coded.push({ kind, values, nulls });
    } else {
      const values = new Float64Array(n);
      for (let r = 0; r < n; r++) {
        const v = at(r) as number | boolean | null;
        values[r] = v === null ? Number.NaN : Number(v);
      }
      coded.push({ kind: 'double', values });
    }
  }
  return { rows: n, kinds: columns.map((c) => c.kind), columns: coded, texts };
}

const nullsOf = (c: TypedColumn): Uint8Array | undefined => ('nulls' in c ? c.nulls : undefined);

/** One typed column of `parts` after another (same kind in every part). */
export function concatColumns(parts: readonly TypedColumn[]): TypedColumn {
  const kind = parts[0].kind;
  if (parts.some((p) => p.kind !== kind)) throw new Error(`concatColumns: columns of different kinds`);
  if (kind === 'varchar') return { kind, values: parts.flatMap((p) => p.values as readonly (string | null)[]) };
  const n = parts.reduce((sum, p) => sum + p.values.length, 0);
  const values = kind === 'double' ? new Float64Array(n) : new Int32Array(n);
  const nulls = parts.some((p) => nullsOf(p)) ? new Uint8Array(n) : undefined;
  let at = 0;
  for (const p of parts) {
    (values as Float64Array | Int32Array).set(p.values as Float64Array | Int32Array, at);
    const partNulls = nullsOf(p);
    if (nulls && partNulls) nulls.set(partNulls, at);
    at += p.values.length;
  }
  return kind === 'double' ? { kind, values: values as Float64Array } : { kind, values: values as Int32Array, nulls };
}

/** Coded rows of the same columns, one part after another, their texts coded anew across all parts. */
export function concatCodedRows(parts: readonly CodedRows[]): CodedRows {
  if (parts.length === 1) return parts[0];
  const kinds = parts[0].kinds;
  const texts: string[][] = [];
  let text = 0;
  const columns = kinds.map((kind, k) => {
    if (kind !== 'varchar') return concatColumns(parts.map((p) => p.columns[k]));
    const known = new Map<string, number>();
    const n = parts.reduce((sum, p) => sum + p.rows, 0);
    const codes = new Int32Array(n);
    let at = 0;
    for (const p of parts) {
      // Each part's code c is its texts[c - 1]; 0 (NULL) stays 0.
      const recode = Int32Array.from([0, ...p.texts[text]], (v, c) => {
        if (c === 0) return 0;
        let code = known.get(v as string);
        if (code === undefined) known.set(v as string, (code = known.size + 1));
        return code;
      });
      const local = p.columns[k].values as Int32Array;
      for (let r = 0; r < p.rows; r++) codes[at + r] = recode[local[r]];
      at += p.rows;
    }
    texts.push([...known.keys()]);
    text++;
    return { kind: 'integer' as const, values: codes };
  });
  return { rows: parts.reduce((sum, p) => sum + p.rows, 0), kinds, columns, texts };
}
