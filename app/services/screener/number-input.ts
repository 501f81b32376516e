// Numbers as people type them into the screener: `1B`, `300M`, `2.5k`, `$1,000,000`, `5%`,
// `-0.3`. The one reader of typed numbers for the screener (universe bounds, rule values and
// numbers inside rule text). Scaling is done on the decimal text, not by multiplying, so `5%` is
// exactly 0.05 and `1.1B` exactly 1100000000 (no 1100000000.0000002).

export type NumberInput = { ok: true; value: number } | { ok: false; message: string };

const MAX_INPUT_LENGTH = 40;

/** Power of ten of each suffix; percentages are fractions on the screener (5% is 0.05). */
export const NUMBER_SUFFIXES: Readonly<Record<string, number>> = { k: 3, m: 6, b: 9, bn: 9, t: 12, '%': -2 };

// sign, optional $, digits (optionally grouped by commas) or a leading-dot fraction, an optional
// exponent, then an optional suffix.
const NUMBER = /^([+-]?)\$?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d{1,3}))?\s*(k|m|bn|b|t|%)?$/i;

/** Moves the decimal point of `digits` (a plain decimal text) by `shift` places and reads it. */
export function shiftDecimal(digits: string, shift: number): number {
  const m = /^([+-]?[\d.]+)(?:e([+-]?\d+))?$/i.exec(digits);
  if (!m) return NaN;
  return Number(`${m[1]}e${Number(m[2] ?? 0) + shift}`);
}

/** Reads one typed number; the message says what is accepted, for the page to show. */
export function parseNumberInput(raw: string): NumberInput {
  const text = raw.trim();
  if (text === '') return { ok: false, message: 'Enter a number' };
  const shown = text.length > MAX_INPUT_LENGTH ? `${text.slice(0, MAX_INPUT_LENGTH)}…` : text;
  const refuse = (): NumberInput => ({
    ok: false,
    message: `“${shown}” is not a number: write e.g. 15, 0.5, 300M, 1.2B or 5%`,
  });
  if (text.length > MAX_INPUT_LENGTH) return refuse();
  const m = NUMBER.exec(text);
  if (!m) return refuse();
  const [, sign, digits, exponent, suffix] = m;
  const shift = Number(exponent ?? 0) + (suffix ? NUMBER_SUFFIXES[suffix.toLowerCase()] : 0);
  const value = shiftDecimal(`${sign}${digits.replaceAll(',', '')}`, shift);
  if (!Number.isFinite(value)) return { ok: false, message: `“${shown}” is too large` };
  return { ok: true, value: Object.is(value, -0) ? 0 : value };
}

const SHORT: [number, string][] = [
  [12, 'T'],
  [9, 'B'],
  [6, 'M'],
  [3, 'K'],
];

/** A number as short as parseNumberInput reads back exactly: 1000000000 → "1B", 1500000 → "1.5M". */
export function compactNumber(value: number): string {
  for (const [power, suffix] of SHORT) {
    if (Math.abs(value) < 10 ** power) continue;
    const scaled = shiftDecimal(String(value), -power);
    const text = String(scaled);
    if (!/e/i.test(text) && (text.split('.')[1] ?? '').length <= 2) return `${text}${suffix}`;
  }
  return String(value);
}
