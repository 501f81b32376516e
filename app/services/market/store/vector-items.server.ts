// A DOUBLE or INTEGER result vector's values as the typed array DuckDB filled, when none is NULL.
// The node API keeps them in a field it does not declare; reading it copies a chunk in one call
// instead of a call per value (a price panel is tens of millions of values). Anything else (other
// types, NULLs, a future API without the field) gives null: take the per-value path then.
export function vectorItems(vector: unknown): { values: Float64Array | Int32Array; valid: null } | null {
  const v = vector as { items?: unknown; validity?: { data?: unknown } };
  if (!(v.items instanceof Float64Array || v.items instanceof Int32Array)) return null;
  return v.validity !== undefined && v.validity.data === null ? { values: v.items, valid: null } : null;
}

/** Copies `rows` values of a numeric result vector into `out` at `at` (NULL → NaN). */
export function copyVector(vector: { getItem(i: number): unknown }, rows: number, out: Int32Array | Float64Array, at: number): void {
  const items = vectorItems(vector) ?? itemsWithNulls(vector);
  if (items) {
    out.set(items.values.subarray(0, rows), at);
    if (items.valid) markNulls(items.valid, rows, out, at);
    return;
  }
  for (let i = 0; i < rows; i++) {
    const x = vector.getItem(i);
    out[at + i] = x === null ? Number.NaN : Number(x);
  }
}

/**
 * A vector's values and validity bits as 32-bit words (bit i of the mask: row i is not NULL), when
 * it has NULLs: the node API reads each row's bit with BigInt operations, which made a chunk with
 * one NULL (a price without a total-return index, a fact without an accession) cost ~20 times as
 * much to copy as one without.
 */
function itemsWithNulls(vector: unknown): { values: Float64Array | Int32Array; valid: Uint32Array } | null {
  const v = vector as { items?: unknown; validity?: { data?: unknown; offset?: unknown } };
  if (!(v.items instanceof Float64Array || v.items instanceof Int32Array) || !LITTLE_ENDIAN) return null;
  const data = v.validity?.data;
  if (!(data instanceof BigUint64Array) || v.validity?.offset !== 0) return null;
  return { values: v.items, valid: new Uint32Array(data.buffer, data.byteOffset, data.length * 2) };
}

// The mask's 64-bit words read as pairs of 32-bit ones, low half first.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function markNulls(valid: Uint32Array, rows: number, out: Int32Array | Float64Array, at: number): void {
  for (let w = 0; w * 32 < rows; w++) {
    const bits = valid[w];
    if (bits === 0xffffffff) continue;
    const end = Math.min(32, rows - w * 32);
    for (let b = 0; b < end; b++) if (((bits >>> b) & 1) === 0) out[at + w * 32 + b] = Number.NaN;
  }
}
