// A DOUBLE or INTEGER result vector's values as the typed array DuckDB filled, when none is NULL.
// The node API keeps them in a field it does not declare; reading it copies a chunk in one call
// instead of a call per value (a price panel is tens of millions of values). Anything else (other
// types, NULLs, a future API without the field) gives null: take the per-value path then.
export function vectorItems(vector: unknown): Float64Array | Int32Array | null {
  const v = vector as { items?: unknown; validity?: { data?: unknown } };
  if (!(v.items instanceof Float64Array || v.items instanceof Int32Array)) return null;
  return v.validity !== undefined && v.validity.data === null ? v.items : null;
}

/** Copies `rows` values of a numeric result vector into `out` at `at` (NULL → NaN). */
export function copyVector(vector: { getItem(i: number): unknown }, rows: number, out: Int32Array | Float64Array, at: number): void {
  const items = vectorItems(vector);
  if (items) {
    out.set(items.subarray(0, rows), at);
    return;
  }
  for (let i = 0; i < rows; i++) {
    const x = vector.getItem(i);
    out[at + i] = x === null ? Number.NaN : Number(x);
  }
}
