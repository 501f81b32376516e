import { toEpochDay } from '../../dates';
import { CONCEPTS, CONCEPT_IDS, type Concept } from '../../market/store/schema';
import type { FactColumns } from './types';

// Building the columnar fact table of one security from plain rows (the loader and the tests
// both come through here), and the fact-set transforms behind the series modes.

export type FactRow = {
  concept: Concept | string;
  value: number;
  periodStart: string | null;
  periodEnd: string;
  fiscalPeriod: string | null;
  filed: string;
  accession: string | null;
};

const CONCEPT_INDEX = new Map<string, number>(CONCEPT_IDS.map((c, i) => [c, i]));
export const FLOW = CONCEPT_IDS.map((c) => CONCEPTS[c].kind === 'flow');

export function conceptIndex(concept: string): number {
  return CONCEPT_INDEX.get(concept) ?? -1;
}

/**
 * 0 instant, 1 quarter, 2 fiscal year, 3 the nine months to the end of the third quarter (stored
 * for per-share values only); -1 for a duration that is none of these (e.g. a half year).
 */
export function periodKindOf(concept: number, fiscalPeriod: string | null, startDay: number | null, endDay: number): number {
  if (!FLOW[concept]) return 0;
  if (fiscalPeriod === 'FY') return 2;
  if (fiscalPeriod === '9M') return 3;
  if (fiscalPeriod === 'Q1' || fiscalPeriod === 'Q2' || fiscalPeriod === 'Q3' || fiscalPeriod === 'Q4') {
    // Year-to-date values tagged with a quarter (a 6- or 9-month Q2/Q3) are not quarters.
    if (startDay !== null && endDay - startDay > 120) return -1;
    return 1;
  }
  if (startDay === null) return -1;
  const length = endDay - startDay;
  if (length >= 80 && length <= 100) return 1;
  if (length >= 350 && length <= 380) return 2;
  return -1;
}

type Staged = {
  c: number;
  v: number;
  end: number;
  kind: number;
  filed: number;
  available: number;
  acc: string | null;
  order: number;
};

function toColumns(rows: Staged[]): FactColumns {
  rows.sort((a, b) => a.available - b.available || a.order - b.order);
  const n = rows.length;
  const accession = new Array<string | null>(n);
  const out: FactColumns = {
    concept: new Int8Array(n),
    value: new Float64Array(n),
    periodEnd: new Int32Array(n),
    periodKind: new Int8Array(n),
    filed: new Int32Array(n),
    available: new Int32Array(n),
    accession,
  };
  rows.forEach((r, i) => {
    out.concept[i] = r.c;
    out.value[i] = r.v;
    out.periodEnd[i] = r.end;
    out.periodKind[i] = r.kind;
    out.filed[i] = r.filed;
    out.available[i] = r.available;
    accession[i] = r.acc;
  });
  return out;
}

/** Unknown concepts, non-finite values and durations that are neither quarter nor year are dropped. */
export function buildFactColumns(rows: readonly FactRow[]): FactColumns {
  return buildFactColumnsFromDays(
    rows.map((r) => ({
      concept: r.concept,
      value: r.value,
      startDay: r.periodStart ? toEpochDay(r.periodStart) : null,
      endDay: toEpochDay(r.periodEnd),
      fiscalPeriod: r.fiscalPeriod,
      filedDay: toEpochDay(r.filed),
      accession: r.accession,
    })),
  );
}

/** The same from epoch days (what the store loader reads, skipping string parsing). */
export type FactDayRow = {
  concept: string;
  value: number;
  startDay: number | null;
  endDay: number;
  fiscalPeriod: string | null;
  filedDay: number;
  accession: string | null;
};

export function buildFactColumnsFromDays(rows: readonly FactDayRow[]): FactColumns {
  const staged: Staged[] = [];
  rows.forEach((r, order) => {
    const c = conceptIndex(r.concept);
    if (c < 0 || !Number.isFinite(r.value)) return;
    const kind = periodKindOf(c, r.fiscalPeriod, r.startDay, r.endDay);
    if (kind < 0) return;
    staged.push({
      c,
      v: r.value,
      end: r.endDay,
      kind,
      filed: r.filedDay,
      available: r.filedDay,
      acc: r.accession,
      order,
    });
  });
  return toColumns(staged);
}

export type FactMode = 'point_in_time' | 'first_reported' | 'latest';

/**
 * The fact set a series is computed from.
 * - point_in_time: every filing from its own filed date (what a screen saw on each day);
 * - first_reported: only the first filing of each period, restatements ignored;
 * - latest: each period's newest filing known on `asOfDay`, usable from the day the period was
 *   first filed (restated history on the original timeline).
 * Facts filed on or after `asOfDay` are dropped in every mode: they were not known yet.
 */
export function factsForMode(facts: FactColumns, mode: FactMode, asOfDay: number): FactColumns {
  const staged: Staged[] = [];
  const groups = new Map<string, Staged[]>();
  for (let i = 0; i < facts.value.length; i++) {
    if (facts.filed[i] >= asOfDay) continue;
    const s: Staged = {
      c: facts.concept[i],
      v: facts.value[i],
      end: facts.periodEnd[i],
      kind: facts.periodKind[i],
      filed: facts.filed[i],
      available: facts.filed[i],
      acc: facts.accession?.[i] ?? null,
      order: i,
    };
    if (mode === 'point_in_time') {
      staged.push(s);
      continue;
    }
    const key = `${s.c}:${s.kind}:${s.end}`;
    const g = groups.get(key);
    if (g) g.push(s);
    else groups.set(key, [s]);
  }
  for (const g of groups.values()) {
    // Input is in availability order, so g[0] is the first filing and g[g.length-1] the newest.
    if (mode === 'first_reported') staged.push(g[0]);
    else staged.push({ ...g[g.length - 1], available: g[0].filed });
  }
  return toColumns(staged);
}
