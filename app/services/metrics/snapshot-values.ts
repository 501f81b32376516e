// How stored snapshot values are encoded. A value column of one (date, block, metric) is a BLOB of
// little-endian Float32 values aligned with the block's permatickers (NaN = n/a): half the bytes
// of Float64, which is what keeps the 6,000-company × 25-year store under a gigabyte. Float32
// keeps ~7.2 significant decimal digits, so every value read back (and every value computed for a
// day that is not stored) is rounded to SNAPSHOT_DIGITS significant digits: the API shows 12.34,
// not 12.340000152587891, and a rule `pe <= 12.34` compares the same 12.34 whether the day was
// stored or computed. Stores built before this format hold Float64 blobs (twice the bytes per
// row); they are read the same way, rounded alike, so both give the same answers.

/** Significant decimal digits kept of every snapshot value (at most). */
export const SNAPSHOT_DIGITS = 7;

// Powers of ten as the nearest doubles, 10^MIN_E .. 10^MAX_E; 10^0 .. 10^22 are exact, so an
// integer divided or multiplied by one of those is rounded once.
const MIN_E = -300;
const MAX_E = 300;
const P10 = Float64Array.from({ length: MAX_E - MIN_E + 2 }, (_, i) => Number(`1e${i + MIN_E}`));
const scratch = new Float64Array(1);
const scratchWords = new Uint32Array(scratch.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** floor(log10(a)) for a finite a > 0 within 1e-300 .. 1e300, from its binary exponent (no Math.log10). */
function decimalExponent(a: number): number {
  scratch[0] = a;
  const e2 = ((scratchWords[HIGH] >>> 20) & 0x7ff) - 1023;
  // log10(a) lies in [e2·log10 2, (e2 + 1)·log10 2): the floor is d or d + 1.
  const d = Math.floor(e2 * 0.3010299956639812);
  return a >= P10[d + 1 - MIN_E] ? d + 1 : d;
}

/** a > 0 rounded to `digits` significant digits, its decimal exponent being e. */
function roundTo(a: number, digits: number, e: number): number {
  const k = digits - 1 - e;
  if (k >= 0 && k <= 22) return Math.round(a * P10[k - MIN_E]) / P10[k - MIN_E];
  if (k < 0 && k >= -22) return Math.round(a / P10[-k - MIN_E]) * P10[-k - MIN_E];
  return Number(a.toPrecision(digits));
}

/**
 * A Float32 value (held in a double) as the decimal it stands for: the shorter of its 6- and
 * 7-significant-digit roundings that maps back to the same Float32 (every decimal of up to six
 * digits comes back exactly, e.g. 12.34; most of seven), else the 7-digit rounding.
 */
export function float32Decimal(f: number): number {
  if (f === 0 || !Number.isFinite(f)) return f;
  const a = f < 0 ? -f : f;
  if (a < 1e-290 || a > 1e290) return Number(f.toPrecision(SNAPSHOT_DIGITS));
  const e = decimalExponent(a);
  let r = roundTo(a, SNAPSHOT_DIGITS - 1, e);
  if (Math.fround(r) !== a) r = roundTo(a, SNAPSHOT_DIGITS, e);
  return f < 0 ? -r : r;
}

/** The value a snapshot holds for x: through Float32, then back to its decimal (what storing and reading back give). */
export function snapshotValue(x: number): number {
  return float32Decimal(Math.fround(x));
}

/** Replaces every value of the column by snapshotValue (for snapshots computed, not read). */
export function quantizeInPlace(values: Float64Array): Float64Array {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === v) values[i] = float32Decimal(Math.fround(v));
  }
  return values;
}

/** The stored bytes of a column (little-endian Float32; NaN stays NaN). */
export function encodeSnapshotValues(values: Float64Array): Uint8Array {
  return storedBytes(Float32Array.from(values));
}

/** The stored bytes of a column already held as Float32 (a build evaluates into these), without a copy. */
export function storedBytes(values: Float32Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/**
 * Decodes a stored column of `rows` values into `out` at `at`: Float32 blobs (4 bytes a row) or
 * the Float64 blobs of older stores (8 bytes a row), rounded alike. Throws on any other length.
 */
export function decodeSnapshotValues(bytes: Uint8Array, rows: number, out: Float64Array, at: number): void {
  if (bytes.byteLength === rows * 4) {
    // Blob bytes may be an unaligned view into a shared buffer: copy them into an own one.
    const f = new Float32Array(rows);
    new Uint8Array(f.buffer).set(bytes);
    for (let i = 0; i < rows; i++) {
      const v = f[i];
      out[at + i] = v === v ? float32Decimal(v) : Number.NaN;
    }
  } else if (bytes.byteLength === rows * 8) {
    const d = new Float64Array(rows);
    new Uint8Array(d.buffer).set(bytes);
    for (let i = 0; i < rows; i++) {
      const v = d[i];
      out[at + i] = v === v ? float32Decimal(Math.fround(v)) : Number.NaN;
    }
  } else {
    throw new Error(`A stored snapshot column has ${bytes.byteLength} bytes for ${rows} rows (neither Float32 nor Float64).`);
  }
}
