import { CONCEPTS, CONCEPT_IDS } from '../../market/store/schema';
import type { FactColumns } from './types';

// Per-share values (EPS) and share counts change meaning at a stock split: a filing made after a
// 4:1 split reports last year's EPS divided by four. Every such value is put on one share basis
// before it is summed, differenced, divided or shown, so a quarter filed before a split and a
// year filed after it never meet in one sum.
//
// A value's basis is that of its filing day: filings restate earlier periods for splits that
// took effect before they were filed. Split events come from the store's corporate actions, or,
// for a company without any, from the filings themselves: a later filing that restates a
// period's per-share value by a clean ratio (2:1, 7:1, 20:1, 1:10 …) dates the split between the
// two filings.

/** A split: `ratio` new shares per old share; filings made on or after `day` are on the new basis. */
export type SplitEvent = { day: number; ratio: number };

export const PER_SHARE_CONCEPTS: ReadonlySet<string> = new Set(CONCEPT_IDS.filter((c) => CONCEPTS[c].unit === 'USD/shares'));
export const SHARE_COUNT_CONCEPTS: ReadonlySet<string> = new Set(CONCEPT_IDS.filter((c) => CONCEPTS[c].unit === 'shares'));
const PER_SHARE_INDEX = CONCEPT_IDS.map((c) => PER_SHARE_CONCEPTS.has(c));
const SHARE_COUNT_INDEX = CONCEPT_IDS.map((c) => SHARE_COUNT_CONCEPTS.has(c));

const CLEAN_RATIOS = [1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 15, 20, 25, 30, 40, 50, 100];

/** The clean split ratio that turns per-share value `before` into `after`, or null. */
export function cleanRatio(before: number, after: number): number | null {
  if (!(Math.abs(before) >= 0.05) || !(Math.abs(after) >= 0.005) || Math.sign(before) !== Math.sign(after)) return null;
  // Both values are rounded to cents (sometimes to 0.001): allow that rounding and no more.
  const near = (x: number, y: number) => Math.abs(x - y) <= 0.006 + 0.002 * Math.abs(y);
  for (const r of CLEAN_RATIOS) {
    if (near(before / r, after)) return r;
    if (near(before * r, after) && near(after / r, before)) return 1 / r;
  }
  return null;
}

/** One observation of a per-share fact: which period, when filed, what value. */
export type PerShareObservation = { concept: string; kind: number | string; end: number; filed: number; value: number };

/**
 * Splits implied by restated per-share values. Consecutive filings of one period whose values
 * differ by a clean ratio are evidence of a split between their filed days; evidence of the same
 * ratio with overlapping windows is one split, kept when at least two values show it (basic and
 * diluted EPS of one period count as two: one odd restatement is not a split). The split's day
 * is the first filing on the new basis.
 */
export function inferSplits(observations: readonly PerShareObservation[]): SplitEvent[] {
  const groups = new Map<string, PerShareObservation[]>();
  for (const o of observations) {
    if (!PER_SHARE_CONCEPTS.has(o.concept) || !Number.isFinite(o.value)) continue;
    const key = `${o.concept}|${o.kind}|${o.end}`;
    const g = groups.get(key);
    if (g) g.push(o);
    else groups.set(key, [o]);
  }
  type Evidence = { ratio: number; lo: number; hi: number; period: string };
  const evidence: Evidence[] = [];
  for (const [key, g] of groups) {
    g.sort((a, b) => a.filed - b.filed);
    for (let i = 1; i < g.length; i++) {
      if (g[i].value === g[i - 1].value || g[i].filed === g[i - 1].filed) continue;
      const ratio = cleanRatio(g[i - 1].value, g[i].value);
      if (ratio !== null) evidence.push({ ratio, lo: g[i - 1].filed, hi: g[i].filed, period: key });
    }
  }
  evidence.sort((a, b) => a.hi - b.hi || a.lo - b.lo || a.ratio - b.ratio);
  const clusters: { ratio: number; lo: number; hi: number; periods: Set<string> }[] = [];
  for (const e of evidence) {
    const c = clusters.find((k) => k.ratio === e.ratio && Math.max(k.lo, e.lo) < Math.min(k.hi, e.hi));
    if (c) {
      c.lo = Math.max(c.lo, e.lo);
      c.hi = Math.min(c.hi, e.hi);
      c.periods.add(e.period);
    } else clusters.push({ ratio: e.ratio, lo: e.lo, hi: e.hi, periods: new Set([e.period]) });
  }
  return clusters
    .filter((c) => c.periods.size >= 2)
    .map((c) => ({ day: c.hi, ratio: c.ratio }))
    .sort((a, b) => a.day - b.day);
}

/** The facts' own splits as observations (what inferSplits reads). */
export function factObservations(facts: FactColumns): PerShareObservation[] {
  const out: PerShareObservation[] = [];
  for (let i = 0; i < facts.value.length; i++) {
    if (!PER_SHARE_INDEX[facts.concept[i]]) continue;
    out.push({
      concept: CONCEPT_IDS[facts.concept[i]],
      kind: facts.periodKind[i],
      end: facts.periodEnd[i],
      filed: facts.filed[i],
      value: facts.value[i],
    });
  }
  return out;
}

/** The store's split actions when it has any, else the splits the filings imply. */
export function splitsFor(storeSplits: readonly SplitEvent[] | undefined, observations: () => PerShareObservation[]): SplitEvent[] {
  if (storeSplits && storeSplits.length > 0) return [...storeSplits].sort((a, b) => a.day - b.day);
  return inferSplits(observations());
}

/**
 * Shares per original share after every split before `day` (the basis of a filing made on
 * `day`, or of what is known on `day` + 1). Infinity stands for "after every split".
 */
export function shareBasis(splits: readonly SplitEvent[], day: number): number {
  let f = 1;
  for (const s of splits) {
    if (s.day > day) break;
    f *= s.ratio;
  }
  return f;
}

/** Multiplier that moves a per-share value from the basis of day `from` to that of day `to`. */
export function perShareFactor(splits: readonly SplitEvent[], from: number, to: number): number {
  return shareBasis(splits, from) / shareBasis(splits, to);
}

/** A per-share value or a share count filed on `filed`, on the basis of `to`; other units unchanged. */
export function onBasis(concept: string, value: number, splits: readonly SplitEvent[], filed: number, to: number): number {
  if (splits.length === 0) return value;
  if (PER_SHARE_CONCEPTS.has(concept)) return value * perShareFactor(splits, filed, to);
  if (SHARE_COUNT_CONCEPTS.has(concept)) return value / perShareFactor(splits, filed, to);
  return value;
}

/**
 * The facts with per-share values and share counts moved onto the basis after every split (so
 * the engine can sum and difference them); the evaluator moves its outputs back to each day's
 * basis. Only the concepts `concepts` accepts are moved.
 */
export function onFinalBasis(facts: FactColumns, splits: readonly SplitEvent[], concepts: (c: number) => boolean): FactColumns {
  if (splits.length === 0) return facts;
  const value = Float64Array.from(facts.value);
  for (let i = 0; i < value.length; i++) {
    const c = facts.concept[i];
    if (!concepts(c)) continue;
    if (PER_SHARE_INDEX[c]) value[i] = value[i] * perShareFactor(splits, facts.filed[i], Number.POSITIVE_INFINITY);
    else if (SHARE_COUNT_INDEX[c]) value[i] = value[i] / perShareFactor(splits, facts.filed[i], Number.POSITIVE_INFINITY);
  }
  return { ...facts, value };
}

export const isPerShareConcept = (c: number): boolean => PER_SHARE_INDEX[c];
export const isShareCountConcept = (c: number): boolean => SHARE_COUNT_INDEX[c];
