import { lowerBound } from './calendar';
import type { PriceSeries } from './types';

// The price panel aligned once to the run's calendar, so "the last bar on or before calendar day
// t" costs a few comparisons instead of a cursor walk over the series' days. Most series have a
// bar on every calendar day between their first and last one (dense): there the bar index is the
// calendar index plus an offset, and valuing a holding reads only its total-return index. A series
// that skips calendar days keeps the list of days it skips (gaps), so any panel is handled the
// same way, only slower. Series are addressed by their index in the run's sorted series list.

export type AlignedPrices = {
  readonly calendar: Int32Array;
  readonly count: number;
  readonly permaticker: Int32Array;
  readonly days: readonly Int32Array[];
  readonly tri: readonly Float64Array[];
  readonly close: readonly Float64Array[];
  readonly delisted: Uint8Array;
  /** Index of the series' last bar (-1 when it has none). */
  readonly last: Int32Array;
  /** Epoch day of the series' last bar (-1 when it has none). */
  readonly lastDay: Int32Array;
  /** Calendar index of the first bar inside the calendar (calendar.length when none). */
  readonly first: Int32Array;
  /** Calendar index of the last bar inside the calendar (-1 when none). */
  readonly lastIn: Int32Array;
  /** Bar index − calendar index at `first` (bar index of the first bar inside the calendar − first). */
  readonly offset: Int32Array;
  /** Calendar indices in (first, lastIn) without a bar, ascending; null when there are none. */
  readonly gaps: readonly (Int32Array | null)[];
  /**
   * Calendar index from which a holding of a delisted series is settled as cash (the day its
   * last bar is the current bar); 2³¹−1 when that never happens inside the calendar.
   */
  readonly settle: Int32Array;
};

export const NEVER = 0x7fffffff;

export function alignPrices(series: readonly PriceSeries[], calendar: Int32Array): AlignedPrices {
  const n = series.length;
  const first = new Int32Array(n);
  const lastIn = new Int32Array(n);
  const offset = new Int32Array(n);
  const last = new Int32Array(n);
  const settle = new Int32Array(n);
  const gaps: (Int32Array | null)[] = new Array<Int32Array | null>(n).fill(null);
  const start = calendar.length > 0 ? calendar[0] : 0;
  const end = calendar.length > 0 ? calendar[calendar.length - 1] : -1;
  for (let i = 0; i < n; i++) {
    const days = series[i].days;
    const lo = lowerBound(days, start);
    const hi = lowerBound(days, end + 1);
    last[i] = days.length - 1;
    if (hi > lo) {
      // Every day of a series within the calendar's range is a calendar day (the calendar is their
      // union), so the series is dense exactly when it has as many bars as the calendar has days.
      const f = lowerBound(calendar, days[lo]);
      const l = lowerBound(calendar, days[hi - 1]);
      first[i] = f;
      lastIn[i] = l;
      offset[i] = lo - f;
      if (l - f !== hi - 1 - lo) gaps[i] = gapsOf(days, lo, hi, calendar, f, l);
    } else {
      first[i] = calendar.length;
      lastIn[i] = -1;
      offset[i] = lo - calendar.length;
    }
    // Settled when its last bar is the current one: from the calendar day of that bar, or from the
    // start when every bar lies before the calendar.
    settle[i] = !series[i].delisted || days.length === 0 || hi !== days.length ? NEVER : hi > lo ? lastIn[i] : 0;
  }
  return {
    calendar,
    count: n,
    permaticker: Int32Array.from(series, (s) => s.permaticker),
    days: series.map((s) => s.days),
    tri: series.map((s) => s.tri),
    close: series.map((s) => s.close),
    delisted: Uint8Array.from(series, (s) => (s.delisted ? 1 : 0)),
    last,
    lastDay: Int32Array.from(series, (s) => (s.days.length > 0 ? s.days[s.days.length - 1] : -1)),
    first,
    lastIn,
    offset,
    gaps,
    settle,
  };
}

function gapsOf(days: Int32Array, lo: number, hi: number, calendar: Int32Array, f: number, l: number): Int32Array {
  const out = new Int32Array(l - f + 1 - (hi - lo));
  let k = 0;
  let j = lo;
  for (let t = f; t <= l; t++) {
    if (days[j] === calendar[t]) j++;
    else out[k++] = t;
  }
  return out;
}

/** Index of series i's last bar on or before calendar day t (-1 when none), as barAtOrBefore. */
export function barAt(p: AlignedPrices, i: number, t: number): number {
  const f = p.first[i];
  if (t < f) return p.offset[i] + f - 1;
  const l = p.lastIn[i];
  const g = p.gaps[i];
  if (t > l) return p.offset[i] + l - (g === null ? 0 : g.length);
  return g === null ? p.offset[i] + t : p.offset[i] + t - upperBound(g, t);
}

/** Number of elements of `a` (ascending) that are ≤ x. */
export function upperBound(a: Int32Array, x: number): number {
  return lowerBound(a, x + 1);
}
