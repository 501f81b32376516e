import type { CompareOp } from '../expression';

// Comparisons where n/a never passes: NaN fails < > = by IEEE rules, but `NaN != 5` is true, so
// every operator checks for NaN explicitly.

export type Comparator = (a: number, b: number) => boolean;

export const COMPARATORS: Record<CompareOp, Comparator> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '=': (a, b) => a === b,
  '!=': (a, b) => a === a && b === b && a !== b,
};

/**
 * Screens a column: writes the rows whose value compares true with `value` to `out` (which may be
 * `rows` itself) and returns how many. The same tests as COMPARATORS, one loop per operator so a
 * screen over thousands of rows makes no call per row.
 */
export function keepComparing(op: CompareOp, col: Float64Array, value: number, rows: Int32Array, out: Int32Array): number {
  let k = 0;
  const n = rows.length;
  switch (op) {
    case '<':
      for (let i = 0; i < n; i++) if (col[rows[i]] < value) out[k++] = rows[i];
      break;
    case '<=':
      for (let i = 0; i < n; i++) if (col[rows[i]] <= value) out[k++] = rows[i];
      break;
    case '>':
      for (let i = 0; i < n; i++) if (col[rows[i]] > value) out[k++] = rows[i];
      break;
    case '>=':
      for (let i = 0; i < n; i++) if (col[rows[i]] >= value) out[k++] = rows[i];
      break;
    case '=':
      for (let i = 0; i < n; i++) if (col[rows[i]] === value) out[k++] = rows[i];
      break;
    case '!=':
      if (value === value)
        for (let i = 0; i < n; i++) {
          const a = col[rows[i]];
          if (a === a && a !== value) out[k++] = rows[i];
        }
      break;
  }
  return k;
}

/** Rows whose value lies in [min, max] (n/a never does), as keepComparing. */
export function keepBetween(col: Float64Array, min: number, max: number, rows: Int32Array, out: Int32Array): number {
  let k = 0;
  for (let i = 0; i < rows.length; i++) {
    const v = col[rows[i]];
    if (v >= min && v <= max) out[k++] = rows[i];
  }
  return k;
}

/** Rows passing any row test, as keepComparing (for the rule kinds without a column loop). */
export function keepWhere(test: (row: number) => boolean, rows: Int32Array, out: Int32Array): number {
  let k = 0;
  for (let i = 0; i < rows.length; i++) if (test(rows[i])) out[k++] = rows[i];
  return k;
}
