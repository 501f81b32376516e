import type { ColumnSet } from '../market/store/column-file';

// Lossless smaller forms of a stored result's number columns (stored-result.ts, format 3). Most
// of a long result is doubles that gzip cannot shrink (8 bytes each), but many are not arbitrary:
// prices are whole thousandths, a market cap is a company's (unchanging) share count times its
// price, a trade's shares are its value over its price. Each column is written in the first form
// that holds for at least 90 % of its rows; the other rows are kept as exceptions (index and
// exact value), so every number reads back bit for bit — including -0, NaN and ±Infinity.
//
// - `milli`: round(v × 1000) as a 32-bit integer (gzip packs these to a byte or two).
// - `times`: v = q × factor[i] with q a whole number; q is stored as the change from the same
//   company's previous q (mostly 0, which gzip packs to almost nothing).
// - `quotient`: v = numerator[i] / denominator[i] exactly: nothing stored.
// - `raw`: the doubles as they are.

export type FloatPacking =
  | { kind: 'raw' }
  | { kind: 'milli' }
  | { kind: 'times'; factor: string; keys: string }
  | { kind: 'quotient'; numerator: string; denominator: string };

/** Share of rows that may be exceptions for a packing to be used. */
const MAX_EXCEPTIONS = 0.1;

type Candidate = { packing: FloatPacking; encode: () => { stored: Float64Array | Int32Array | null; exceptions: number[] } | null };

function milli(values: Float64Array, limit: number): ReturnType<Candidate['encode']> {
  const ints = new Int32Array(values.length);
  const exceptions: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // `| 0` as the stored integer reads back (-0 becomes 0, so -0 stays an exception).
    const q = Math.round(v * 1000) | 0;
    if (Math.abs(Math.round(v * 1000)) < 2 ** 31 && Object.is(q / 1000, v)) ints[i] = q;
    else if (exceptions.push(i) > limit) return null;
  }
  return { stored: ints, exceptions };
}

/** Each row's key as a dense slot 0…(distinct keys − 1), and the number of slots. */
function slots(keys: Int32Array): { slot: Int32Array; count: number } {
  const index = new Map<number, number>();
  const slot = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    let s = index.get(keys[i]);
    if (s === undefined) index.set(keys[i], (s = index.size));
    slot[i] = s;
  }
  return { slot, count: index.size };
}

function times(values: Float64Array, factor: Float64Array, keys: Int32Array, limit: number): ReturnType<Candidate['encode']> {
  const deltas = new Float64Array(values.length);
  const { slot, count } = slots(keys);
  const previous = new Float64Array(count);
  const exceptions: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const q = Math.round(v / factor[i]);
    const d = q - previous[slot[i]];
    if (Number.isSafeInteger(q) && !Object.is(q, -0) && Number.isSafeInteger(d) && Object.is(q * factor[i], v)) {
      deltas[i] = d;
      previous[slot[i]] = q;
    } else if (exceptions.push(i) > limit) return null;
  }
  return { stored: deltas, exceptions };
}

function quotient(
  values: Float64Array,
  numerator: Float64Array,
  denominator: Float64Array,
  limit: number,
): ReturnType<Candidate['encode']> {
  const exceptions: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (!Object.is(numerator[i] / denominator[i], values[i]) && exceptions.push(i) > limit) return null;
  }
  return { stored: null, exceptions };
}

export type PackOptions = {
  /** Another column (already in `columns`, written raw or read back before this one) that this one may be a whole multiple of. */
  factor?: { name: string; values: Float64Array; keys: { name: string; values: Int32Array } };
  /** Two columns this one may be the exact quotient of. */
  quotient?: { numerator: { name: string; values: Float64Array }; denominator: { name: string; values: Float64Array } };
};

/** Writes `values` into `columns` under `name` in its smallest exact form; returns how, for the reader. */
export function packFloats(columns: ColumnSet, name: string, values: Float64Array, opts: PackOptions = {}): FloatPacking {
  const limit = Math.floor(values.length * MAX_EXCEPTIONS);
  const candidates: Candidate[] = [];
  const q = opts.quotient;
  if (q)
    candidates.push({
      packing: { kind: 'quotient', numerator: q.numerator.name, denominator: q.denominator.name },
      encode: () => quotient(values, q.numerator.values, q.denominator.values, limit),
    });
  candidates.push({ packing: { kind: 'milli' }, encode: () => milli(values, limit) });
  const f = opts.factor;
  if (f)
    candidates.push({
      packing: { kind: 'times', factor: f.name, keys: f.keys.name },
      encode: () => times(values, f.values, f.keys.values, limit),
    });
  for (const c of candidates) {
    const encoded = c.encode();
    if (!encoded) continue;
    if (encoded.stored) columns[name] = encoded.stored;
    columns[`${name}.xi`] = Int32Array.from(encoded.exceptions);
    columns[`${name}.xv`] = Float64Array.from(encoded.exceptions, (i) => values[i]);
    return c.packing;
  }
  columns[name] = values;
  return { kind: 'raw' };
}

/** The doubles `packFloats` wrote; `decoded` gives columns this one refers to, already read back. */
export function unpackFloats(
  columns: ColumnSet,
  name: string,
  packing: FloatPacking,
  length: number,
  decoded: (name: string) => Float64Array | Int32Array,
): Float64Array {
  if (packing.kind === 'raw') return columns[name] as Float64Array;
  const xi = columns[`${name}.xi`];
  const xv = columns[`${name}.xv`];
  const out = new Float64Array(length);
  let next = 0;
  const exception = (i: number) => next < xi.length && xi[next] === i;
  if (packing.kind === 'milli') {
    const ints = columns[name];
    for (let i = 0; i < length; i++) out[i] = exception(i) ? xv[next++] : ints[i] / 1000;
  } else if (packing.kind === 'quotient') {
    const a = decoded(packing.numerator);
    const b = decoded(packing.denominator);
    for (let i = 0; i < length; i++) out[i] = exception(i) ? xv[next++] : a[i] / b[i];
  } else {
    const deltas = columns[name];
    const factor = decoded(packing.factor);
    const { slot, count } = slots(Int32Array.from(decoded(packing.keys)));
    const previous = new Float64Array(count);
    for (let i = 0; i < length; i++) {
      if (exception(i)) {
        out[i] = xv[next++];
        continue;
      }
      const q = deltas[i] + previous[slot[i]];
      previous[slot[i]] = q;
      out[i] = q * factor[i];
    }
  }
  return out;
}
