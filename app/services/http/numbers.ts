// Numbers as text outside the page: CSV downloads and any other export. A stored value such as
// 0.1 + 0.2 is 0.30000000000000004 in binary floating point; 15 significant digits is the most a
// double always holds exactly, so rounding to them removes that noise and keeps every real digit.

/** What a missing value reads as, on pages and in downloads alike. */
export const NOT_AVAILABLE = 'n/a';

const SIGNIFICANT_DIGITS = 15;

/** A finite number as plain text without float noise; null, undefined, NaN and ±Infinity read n/a. */
export function formatNumberForExport(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NOT_AVAILABLE;
  const rounded = Number(value.toPrecision(SIGNIFICANT_DIGITS));
  // -0 (a tiny negative rounded away, or a computed -0) is written as 0.
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/**
 * A number rounded to `digits` decimals the way the page shows it, as a number for an export
 * (the rounding is done on the decimal text, so 1.005 to 2 digits is 1.01 and no noise is added).
 */
export function roundForExport(value: number | null | undefined, digits: number): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const shifted = Math.round(Math.abs(Number(`${value.toPrecision(SIGNIFICANT_DIGITS)}e${digits}`)));
  const rounded = Number(`${shifted}e-${digits}`) * Math.sign(value);
  return Object.is(rounded, -0) ? 0 : rounded;
}
