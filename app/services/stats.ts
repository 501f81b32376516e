// Small statistics shared by the company and market pages. Missing values (null, NaN) are
// skipped, never counted as zero; an empty input gives null ("n/a").

export function finite(values: readonly (number | null | undefined)[]): number[] {
  return values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

export function mean(values: readonly (number | null | undefined)[]): number | null {
  const xs = finite(values);
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

export function median(values: readonly (number | null | undefined)[]): number | null {
  // A typed array sorts numbers natively, several times faster than a comparator (the sector
  // medians of every month-end of a large store are twenty thousand of these).
  const xs = Float64Array.from(finite(values)).sort();
  if (xs.length === 0) return null;
  const mid = xs.length >> 1;
  return xs.length % 2 === 1 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/** Growth from `previous` to `current`; null unless previous is positive (a sign flip has no growth rate). */
export function growthRate(current: number | null | undefined, previous: number | null | undefined): number | null {
  if (
    typeof current !== 'number' ||
    typeof previous !== 'number' ||
    !Number.isFinite(current) ||
    !Number.isFinite(previous) ||
    previous <= 0
  )
    return null;
  return current / previous - 1;
}

/** Compound annual growth over `years`; null unless both ends are positive. */
export function cagr(current: number | null | undefined, previous: number | null | undefined, years: number): number | null {
  if (typeof current !== 'number' || typeof previous !== 'number' || !(current > 0) || !(previous > 0) || years <= 0) return null;
  return Math.pow(current / previous, 1 / years) - 1;
}

/** numerator / denominator; null when the denominator is zero or negative-free division is meaningless. */
export function ratio(numerator: number | null | undefined, denominator: number | null | undefined): number | null {
  if (
    typeof numerator !== 'number' ||
    typeof denominator !== 'number' ||
    !Number.isFinite(numerator) ||
    !Number.isFinite(denominator) ||
    denominator === 0
  )
    return null;
  return numerator / denominator;
}
