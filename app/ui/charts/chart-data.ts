import { toEpochDay, fromEpochDay, type IsoDate } from '~/services/dates';

// The pure half of the chart wrapper: our series → nivo's data, which x ticks to draw, and which
// y scale a series allows. No React, no I/O, so it is unit-tested alone.

export type ChartPoint = { date: IsoDate; value: number | null };
export type ChartSeries = { id: string; label: string; points: ChartPoint[] };
export type NivoDatum = { x: IsoDate; y: number | null };
export type NivoSerie = { id: string; data: NivoDatum[] };
export type ScaleKind = 'linear' | 'log';

/** Above this many points per series the chart keeps every n-th point (the table says so). */
export const MAX_CHART_POINTS = 400;

/**
 * Keeps at most `max` points, evenly spaced, always including the first and the last so the
 * chart ends on the value the page quotes.
 */
export function thinPoints<T>(points: readonly T[], max = MAX_CHART_POINTS): T[] {
  if (points.length <= max) return [...points];
  if (max < 2) return points.slice(-1);
  const out: T[] = [];
  const step = (points.length - 1) / (max - 1);
  let previous = -1;
  for (let k = 0; k < max; k++) {
    const i = Math.round(k * step);
    if (i !== previous) out.push(points[i]);
    previous = i;
  }
  return out;
}

/** Series → nivo line data. Nulls stay null (nivo draws a gap), never 0. */
export function toNivoSeries(series: readonly ChartSeries[], max = MAX_CHART_POINTS): NivoSerie[] {
  return series.map((s) => ({
    id: s.label,
    data: thinPoints(s.points, max).map((p) => ({ x: p.date, y: p.value !== null && Number.isFinite(p.value) ? p.value : null })),
  }));
}

/**
 * A log axis needs strictly positive values: it is used when there is at least one, and the
 * zero or negative values are left out of the drawing (the page says how many; the table keeps
 * them). Without any positive value the chart falls back to linear.
 */
export function chooseScale(requested: ScaleKind, series: readonly ChartSeries[]): ScaleKind {
  if (requested === 'linear') return 'linear';
  return series.some((s) => s.points.some((p) => p.value !== null && Number.isFinite(p.value) && p.value > 0)) ? 'log' : 'linear';
}

/** For a log axis: the series with non-positive values as gaps, and how many were left out. */
export function positiveOnly(series: readonly ChartSeries[]): { series: ChartSeries[]; skipped: number } {
  let skipped = 0;
  const kept = series.map((s) => ({
    ...s,
    points: s.points.map((p) => {
      if (p.value !== null && Number.isFinite(p.value) && p.value <= 0) {
        skipped += 1;
        return { ...p, value: null };
      }
      return p;
    }),
  }));
  return { series: kept, skipped };
}

/** Min and max over every finite value (null when there is none). */
export function valueExtent(series: readonly ChartSeries[]): { min: number; max: number } | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const s of series)
    for (const p of s.points) {
      if (p.value === null || !Number.isFinite(p.value)) continue;
      if (p.value < min) min = p.value;
      if (p.value > max) max = p.value;
    }
  return min <= max ? { min, max } : null;
}

const STEP_MONTHS = [1, 2, 3, 6, 12, 24, 60, 120];

/** A month as an index (year × 12 + month − 1) and back as the date of its 1st. */
const monthIndex = (date: IsoDate) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
const monthFirst = (index: number): IsoDate =>
  `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;

/**
 * X-axis ticks for a date range: the first days of months on a calendar-friendly step (1, 2, 3,
 * 6 months, 1, 2, 5, 10 years), the smallest step giving at most `maxTicks`. Short ranges (under
 * two months) get evenly spaced days instead.
 */
export function dateTicks(from: IsoDate, to: IsoDate, maxTicks = 6): IsoDate[] {
  if (from > to) return [];
  const span = toEpochDay(to) - toEpochDay(from);
  if (span < 62) {
    const n = Math.max(1, Math.min(maxTicks, span + 1));
    const out: IsoDate[] = [];
    for (let k = 0; k < n; k++) {
      const d = fromEpochDay(toEpochDay(from) + Math.round((k * span) / Math.max(1, n - 1)));
      if (out[out.length - 1] !== d) out.push(d);
    }
    return out;
  }
  // A tick before the range would fall off the axis: start at the next month unless on the 1st.
  // The last month's 1st is on or before `to`. Counted first: a 25-year range has 300 monthly ticks.
  const first = monthIndex(from) + (from.endsWith('-01') ? 0 : 1);
  const last = monthIndex(to);
  for (const step of STEP_MONTHS) {
    const start = Math.ceil(first / step) * step;
    const count = start > last ? 0 : Math.floor((last - start) / step) + 1;
    if (count <= maxTicks) return Array.from({ length: count }, (_, k) => monthFirst(start + k * step));
  }
  return [from, to];
}

/** The date range covered by all series (null when empty). */
export function dateExtent(series: readonly ChartSeries[]): { from: IsoDate; to: IsoDate } | null {
  let from: IsoDate | null = null;
  let to: IsoDate | null = null;
  for (const s of series)
    for (const p of s.points) {
      if (from === null || p.date < from) from = p.date;
      if (to === null || p.date > to) to = p.date;
    }
  return from !== null && to !== null ? { from, to } : null;
}

/** Tick label: a year for January ticks on long ranges, else "Mon YYYY" or the day. */
export function tickLabel(date: IsoDate, spanDays: number): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const [y, m, d] = date.split('-').map(Number);
  if (spanDays < 62) return `${months[m - 1]} ${d}`;
  if (spanDays > 3 * 366 && m === 1) return String(y);
  return `${months[m - 1]} ${y}`;
}

/**
 * Rows of the data table beside a chart: one row per date, one column per series (the values
 * the chart draws, after thinning).
 */
export function tableRows(series: readonly ChartSeries[], max = MAX_CHART_POINTS): { date: IsoDate; values: (number | null)[] }[] {
  const thinned = series.map((s) => new Map(thinPoints(s.points, max).map((p) => [p.date, p.value])));
  const dates = [...new Set(thinned.flatMap((m) => [...m.keys()]))].sort();
  return dates.map((date) => ({ date, values: thinned.map((m) => (m.has(date) ? (m.get(date) ?? null) : null)) }));
}
