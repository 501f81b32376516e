import { toEpochDay, type IsoDate } from '../dates';
import type { Range } from './price-ranges';

// The price chart tab's data shaping (pure): prices on the chosen basis, comparisons as % change
// from the first day of the range, the compare list a URL carries, and the sampled data table.

/** adjusted = splits and dividends (from the total-return index); raw = the price as traded. */
export const BASES = ['adjusted', 'raw'] as const;
export type Basis = (typeof BASES)[number];

/** Comparison lines beside the company itself. */
export const MAX_COMPARISONS = 5;
/** Compare entries looked at from one URL (the rest are reported as left out, never resolved). */
export const MAX_COMPARE_TOKENS = 12;
/** Longest entry kept from the compare list (a ticker, permaticker or a company name). */
export const MAX_TOKEN_LENGTH = 60;
/** Rows of the data table: longer ranges are sampled weekly, monthly, … */
export const MAX_TABLE_ROWS = 260;
/** Volume bars: longer ranges are summed by week, month, … (every bar costs server render time). */
export const MAX_VOLUME_BARS = 130;
/** Points per line sent to the chart (evenly thinned, first and last kept). */
export const MAX_LINE_POINTS = 400;

/** One stored price row: close split-adjusted, close_unadj as traded, volume split-adjusted. */
export type StoredPrice = { date: IsoDate; close: number; close_unadj: number | null; volume: number | null; tri: number | null };

/** A day on the chosen basis: the close and the volume on the same basis. */
export type BasisPoint = { date: IsoDate; close: number; volume: number | null };

const positive = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/**
 * Puts stored rows on a basis. Raw: the close as traded and the volume in shares traded that day
 * (stored volume ÷ the split factor close_unadj / close). Adjusted: the total-return index scaled
 * so the last day equals its split-adjusted close (like an "adj. close"), with split-adjusted
 * volume; when any row lacks a total-return index the closes are split-adjusted only and
 * `dividends` is false.
 */
export function onBasis(rows: readonly StoredPrice[], basis: Basis): { points: BasisPoint[]; dividends: boolean } {
  if (basis === 'raw') {
    const points = rows.map((r) => {
      const factor = positive(r.close_unadj) && positive(r.close) ? r.close_unadj / r.close : 1;
      return {
        date: r.date,
        close: positive(r.close_unadj) ? r.close_unadj : r.close,
        volume: r.volume === null ? null : r.volume / factor,
      };
    });
    return { points, dividends: false };
  }
  const last = rows[rows.length - 1];
  if (!last || !rows.every((r) => positive(r.tri)) || !positive(last.close))
    return { points: rows.map((r) => ({ date: r.date, close: r.close, volume: r.volume })), dividends: false };
  const k = last.close / (last.tri as number);
  return { points: rows.map((r) => ({ date: r.date, close: (r.tri as number) * k, volume: r.volume })), dividends: true };
}

/** Change from the first positive value (a fraction, 0.12 = +12%); null before it and for gaps. */
export function percentFrom(values: readonly (number | null)[]): (number | null)[] {
  const base = values.find(positive);
  return values.map((v) => (base !== undefined && typeof v === 'number' && Number.isFinite(v) ? v / base - 1 : null));
}

/**
 * A comparison's closes on the company's dates, as % change from its first close on or after the
 * first of those dates (null where it did not trade).
 */
export function alignedPercent(dates: readonly IsoDate[], points: readonly BasisPoint[]): (number | null)[] {
  const byDate = new Map(points.map((p) => [p.date, p.close]));
  return percentFrom(dates.map((d) => byDate.get(d) ?? null));
}

/**
 * The compare list of a URL (`compare=AAA,BBB`, also repeated): trimmed, empty entries dropped,
 * duplicates (case-insensitive) dropped, each cut to MAX_TOKEN_LENGTH; at most MAX_COMPARE_TOKENS
 * are kept, `extra` counts the rest.
 */
export function parseCompareList(values: readonly string[]): { tokens: string[]; extra: number } {
  const seen = new Set<string>();
  const tokens: string[] = [];
  let extra = 0;
  for (const value of values)
    for (const part of value.split(',')) {
      const token = part.replace(/\s+/g, ' ').trim().slice(0, MAX_TOKEN_LENGTH).trim();
      if (token === '' || seen.has(token.toUpperCase())) continue;
      seen.add(token.toUpperCase());
      if (tokens.length < MAX_COMPARE_TOKENS) tokens.push(token);
      else extra += 1;
    }
  return { tokens, extra };
}

export type Sampling = 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';
const SAMPLINGS: Sampling[] = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'];

/** The period a date falls in: the day, its Monday-based week, month, quarter or year. */
export function periodKey(date: IsoDate, sampling: Sampling): string {
  switch (sampling) {
    case 'daily':
      return date;
    case 'weekly':
      // 1970-01-01 was a Thursday: +3 makes weeks start on Monday.
      return String(Math.floor((toEpochDay(date) + 3) / 7));
    case 'monthly':
      return date.slice(0, 7);
    case 'quarterly':
      return `${date.slice(0, 4)}Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3)}`;
    case 'yearly':
      return date.slice(0, 4);
  }
}

/** The finest sampling that gives at most `max` rows. */
export function chooseSampling(dates: readonly IsoDate[], max = MAX_TABLE_ROWS): Sampling {
  for (const s of SAMPLINGS) if (new Set(dates.map((d) => periodKey(d, s))).size <= max) return s;
  return 'yearly';
}

export type DayRow = { date: IsoDate; close: number; volume: number | null; compare: (number | null)[] };
export type TableRow = { date: IsoDate; close: number; change: number | null; volume: number | null; compare: (number | null)[] };

/**
 * One row per period: its last trading day's close and comparisons, the change from the previous
 * row's close, and the period's total volume (null when no day of it has one).
 */
export function sampleRows(days: readonly DayRow[], sampling: Sampling): TableRow[] {
  const rows: TableRow[] = [];
  let key: string | null = null;
  let volume: number | null = null;
  for (const d of days) {
    const k = periodKey(d.date, sampling);
    if (k !== key) {
      key = k;
      volume = null;
      rows.push({ date: d.date, close: d.close, change: null, volume: null, compare: d.compare });
    }
    if (d.volume !== null && Number.isFinite(d.volume)) volume = (volume ?? 0) + d.volume;
    const row = rows[rows.length - 1];
    row.date = d.date;
    row.close = d.close;
    row.compare = d.compare;
    row.volume = volume;
  }
  for (let i = 1; i < rows.length; i++) rows[i].change = positive(rows[i - 1].close) ? rows[i].close / rows[i - 1].close - 1 : null;
  return rows;
}

/** Evenly spaced indices into `n` items, at most `max`, the first and the last always in. */
export function thinIndices(n: number, max = MAX_LINE_POINTS): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  const step = (n - 1) / (max - 1);
  for (let k = 0; k < max; k++) {
    const i = Math.round(k * step);
    if (out[out.length - 1] !== i) out.push(i);
  }
  return out;
}

/** What the table's sampling means, for its caption. */
export function samplingNote(sampling: Sampling, days: number): string {
  const n = `${days.toLocaleString('en-US')} trading day${days === 1 ? '' : 's'}`;
  if (sampling === 'daily') return `Daily closes, ${n}.`;
  const period = { weekly: 'week', monthly: 'month', quarterly: 'quarter', yearly: 'year' }[sampling];
  return `${n} shown ${sampling}: each row is the last trading day of a ${period}, its change is from the previous row and its volume is the ${period}'s total.`;
}

export type ChartLinkQuery = { range: Range; basis: Basis; ma: boolean; compare: string[] };

/** The tab's address for a query (as_of kept); defaults and empty values left out. */
export function chartHref(q: ChartLinkQuery, asOf: IsoDate | null): string {
  const p = new URLSearchParams();
  if (asOf) p.set('as_of', asOf);
  p.set('range', q.range);
  p.set('basis', q.basis);
  if (q.ma) p.set('ma', '1');
  if (q.compare.length > 0) p.set('compare', q.compare.join(','));
  return `?${p.toString()}`;
}
