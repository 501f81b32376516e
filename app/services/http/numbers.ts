// Numbers as text outside the page: JSON answers, CSV downloads and any other export. A stored
// value such as 0.1 + 0.2 is 0.30000000000000004 in binary floating point, and a difference of
// two such values (a fourth quarter = year − nine months, a split-adjusted EPS) carries a few
// units in the last place: 0.9900000000000007 is still noisy at 15 digits. No filed amount,
// per-share value or traded price has more than 12 significant digits, so rounding to 12 removes
// the noise and keeps every digit of the source; ratios computed from them keep 12 as well.

/** What a missing value reads as, on pages and in downloads alike. */
export const NOT_AVAILABLE = 'n/a';

const SIGNIFICANT_DIGITS = 12;

/** 10^0 … 10^22: every one exact as a double. */
const EXACT_POWERS = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** A finite number without float noise (1.8400000000000003 → 1.84); -0 becomes 0. */
export function withoutFloatNoise(value: number): number {
  // Integers (counts, amounts in whole dollars) are exact below 2^53: nothing to remove.
  if (!Number.isFinite(value) || Number.isInteger(value)) return Object.is(value, -0) ? 0 : value;
  const rounded = roundedFast(value) ?? Number(value.toPrecision(SIGNIFICANT_DIGITS));
  // -0 (a tiny negative rounded away, or a computed -0) is written as 0.
  return Object.is(rounded, -0) ? 0 : rounded;
}

/**
 * `Number(value.toPrecision(12))` without the text (a JSON answer has tens of thousands of
 * numbers, and toPrecision was most of its writing time), or null where this cannot be sure.
 * With a = |value| and 10^k exact (0 ≤ k ≤ 22), n = a·10^k < 10^12 is one rounding away from
 * the exact product, at most 10^12·2^-53 ≈ 1.1e-4 off: unless n lies that close to a half,
 * Math.round(n) is the integer toPrecision rounds to, and dividing it by 10^k (one correctly
 * rounded division) gives the double nearest that decimal — what parsing toPrecision's text
 * gives. Near a half, and outside 1e-11 ≤ a < 1e12, toPrecision decides.
 */
function roundedFast(value: number): number | null {
  const a = value < 0 ? -value : value;
  if (!(a >= 1e-11 && a < 1e12)) return null;
  let k = SIGNIFICANT_DIGITS - 1 - Math.floor(Math.log10(a));
  // log10 may be off by one next to a power of ten: bring n into [10^11, 10^12).
  let n = a * EXACT_POWERS[k];
  if (n >= 1e12) n = a * EXACT_POWERS[--k];
  else if (n < 1e11 && k < 22) n = a * EXACT_POWERS[++k];
  if (k < 0 || k > 22 || n >= 1e12 || n < 1e11) return null;
  const fraction = n - Math.floor(n);
  if (fraction > 0.4998 && fraction < 0.5002) return null;
  const r = Math.round(n) / EXACT_POWERS[k];
  return value < 0 ? -r : r;
}

/** A finite number as plain text without float noise; null, undefined, NaN and ±Infinity read n/a. */
export function formatNumberForExport(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NOT_AVAILABLE;
  return String(withoutFloatNoise(value));
}

/** A JSON.stringify replacer that writes every number without float noise (the JSON API's one writer). */
export function jsonWithoutFloatNoise(_key: string, value: unknown): unknown {
  return typeof value === 'number' ? withoutFloatNoise(value) : value;
}

/**
 * The text `JSON.stringify(value, jsonWithoutFloatNoise)` writes, written faster: the numbers are
 * rounded in a copy, which JSON.stringify then writes without a replacer. A replacer is a call
 * per value from JSON.stringify's slow path; a backtest answer's curves are thousands of numbers.
 */
export function jsonTextWithoutFloatNoise(value: unknown): string {
  return JSON.stringify(roundedCopy(value, ''));
}

/** `value` as JSON.stringify sees it (after its toJSON, called once as JSON.stringify does), every number in it without float noise. */
function roundedCopy(value: unknown, key: string): unknown {
  if (typeof value === 'number') return withoutFloatNoise(value);
  if (value === null || typeof value !== 'object') return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return copyOf(typeof toJSON === 'function' ? (toJSON as (k: string) => unknown).call(value, key) : value);
}

function copyOf(value: unknown): unknown {
  if (typeof value === 'number') return withoutFloatNoise(value);
  if (value === null || typeof value !== 'object') return value;
  // Boxed primitives are written as their value, and a replacer sees the box: left as they are.
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      out[i] = typeof v === 'number' ? withoutFloatNoise(v) : roundedCopy(v, String(i));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) out[k] = roundedCopy((value as Record<string, unknown>)[k], k);
  return out;
}

/**
 * A number rounded to `digits` decimals the way the page shows it, as a number for an export
 * (the rounding is done on the decimal text, so 1.005 to 2 digits is 1.01 and no noise is added).
 */
export function roundForExport(value: number | null | undefined, digits: number): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return roundToDecimals(value, digits);
}

/**
 * `value` rounded to `decimals` places on its decimal text (half away from zero); a negative
 * count rounds to tens, thousands, millions (−6: 394,328,411,000 → 394,328,000,000).
 */
export function roundToDecimals(value: number, decimals: number): number {
  if (!Number.isFinite(value) || !Number.isInteger(decimals)) return value;
  // Shift the decimal text (never multiply: 1.005 × 100 is 100.49999…) from its 12 significant digits.
  const [mantissa, exponent] = Math.abs(value)
    .toExponential(SIGNIFICANT_DIGITS - 1)
    .split('e');
  const shifted = Math.round(Number(`${mantissa}e${Number(exponent) + decimals}`));
  // Beyond 2^53 every double is a whole number: nothing left to round at these places.
  if (!Number.isSafeInteger(shifted)) return withoutFloatNoise(value);
  const rounded = Number(`${shifted}e${-decimals}`) * Math.sign(value);
  return Object.is(rounded, -0) ? 0 : rounded;
}

// Precision as reported. SEC's companyfacts API carries no XBRL `decimals`, so a value's
// precision is read from the value: a per-share value is given to its decimal places (6.31 → 2),
// an amount or a share count to its trailing zeros (394,328,000,000 → −6, millions). One filing
// reports all its amounts in one scale, so callers take the finest precision among a filing's
// values of one unit (a round 1,000,000,000 in a filing in millions is still millions).

/** Decimal places `value` is written to: 6.31 → 2, 0.082 → 3, 394328000000 → −6, 0 → 0. */
export function reportedDecimals(value: number): number {
  if (!Number.isFinite(value) || value === 0) return 0;
  const clean = withoutFloatNoise(value);
  if (Number.isInteger(clean)) {
    let d = 0;
    let v = Math.abs(clean);
    while (d > -15 && v % 10 === 0) {
      v /= 10;
      d--;
    }
    return d;
  }
  const [mantissa, exp] = Math.abs(clean).toExponential().split('e');
  return Math.max(0, (mantissa.split('.')[1]?.length ?? 0) - Number(exp));
}

/**
 * Decimals of a value given to `decimals` places once multiplied by `factor` (a split
 * adjustment): dividing by 28 (factor 1/28) moves the last reported digit two places right
 * (44.15 / 28 = 1.5768, known to about ±0.0002); multiplying by a whole number loses nothing.
 */
export function decimalsAfterFactor(decimals: number, factor: number): number {
  if (!(factor > 0) || factor === 1) return decimals;
  if (factor < 1) return decimals + Math.ceil(Math.log10(1 / factor) - 1e-9);
  return Number.isInteger(withoutFloatNoise(factor)) ? decimals : decimals + reportedDecimals(factor);
}
