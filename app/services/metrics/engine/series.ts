import { fromEpochDay, type IsoDate } from '../../dates';
import { getMetric } from '../catalogue';
import { SecurityEvaluator } from './evaluate';
import { factsForMode, type FactMode } from './facts';
import { metricIndex, N_METRICS } from './metric-index';
import { DIVIDEND_METRIC_IDS } from './dividends';
import { technicalGroups } from './technicals';
import type { MarketReturns, SecurityInput } from './types';

// The history of one metric of one security, for charts and the data browser: every trading day
// for price-based metrics, and for filing-based metrics one point per change (a new filing, or
// a value going stale). Each point names the filing that produced it.

export type SeriesPoint = {
  date: IsoDate;
  value: number | null;
  /** Filed date and accession of the newest filing the value rests on (null for price-only metrics). */
  filed: IsoDate | null;
  accession: string | null;
};

export type SeriesOptions = {
  fromDay: number;
  toDay: number;
  /** Only facts filed before this day exist for the series (what was known on it). */
  asOfDay: number;
  mode: FactMode;
  /** The exchange's trading days (lookbacks count them); the security's own days without it. */
  calendar?: Int32Array;
};

export function metricSeriesOf(input: SecurityInput, market: MarketReturns | null, metricId: string, opts: SeriesOptions): SeriesPoint[] {
  const def = getMetric(metricId);
  if (!def) throw new Error(`Unknown metric ${metricId}`);
  const m = metricIndex(metricId);
  const facts = factsForMode(input.facts, opts.mode, opts.asOfDay);
  const ev = new SecurityEvaluator({ ...input, facts }, opts.calendar);
  const usesFilings = def.frequency !== 'daily' || def.concepts.length > 0 || metricId === 'last_filed' || metricId === 'days_since_filing';
  const everyDay = def.frequency === 'daily';
  const row = new Float64Array(N_METRICS);
  // Only the technicals (and dividends) this metric needs: the others cost most of a day's evaluation.
  const need = new Uint8Array(N_METRICS);
  need[m] = 1;
  const groups = technicalGroups(need);
  const dividends = (DIVIDEND_METRIC_IDS as readonly string[]).includes(metricId);
  const out: SeriesPoint[] = [];
  const toDay = Math.min(opts.toDay, opts.asOfDay);
  let prevValue = Number.NaN;
  let prevFact = -2;
  for (let k = 0; k < input.dates.length; k++) {
    const day = input.dates[k];
    if (day < opts.fromDay) continue;
    if (day > toDay) break;
    if (!ev.evaluateInto(day, row, market, groups, dividends)) continue;
    const v = row[m];
    const lf = ev.lastFact;
    const same = (Number.isNaN(v) && Number.isNaN(prevValue)) || v === prevValue;
    if (!everyDay && out.length > 0 && same && lf === prevFact) continue;
    prevValue = v;
    prevFact = lf;
    out.push({
      date: fromEpochDay(day),
      value: Number.isNaN(v) ? null : v,
      filed: usesFilings && lf >= 0 ? fromEpochDay(facts.filed[lf]) : null,
      accession: usesFilings && lf >= 0 ? (facts.accession?.[lf] ?? null) : null,
    });
  }
  return out;
}
