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
// two filings; so does the share count changing by such a ratio from one filing to the next.
// An inferred split is known only once its evidence is complete (`known`, the filed day of the
// filing that confirmed it): before that day nothing uses it, so there is no look-ahead.

/**
 * A split: `ratio` new shares per old share; filings made on or after `day` are on the new basis.
 * `known`: the day it became known (usable on later days). Absent for a store action, which is
 * usable from its ex-date `day` itself (prices trade on the new basis that day).
 */
export type SplitEvent = { day: number; ratio: number; known?: number };

/** The day a split became known (it is usable on the days after it). */
export const knownDay = (s: SplitEvent): number => s.known ?? s.day - 1;

/** The splits known on `day` (confirmed by a filing filed before it), in order of `day`. */
export function splitsKnownOn(splits: readonly SplitEvent[], day: number): SplitEvent[] {
  return splits.filter((s) => knownDay(s) < day);
}

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
 * is the first filing on the new basis; it is known from the filing that brought the second
 * value (the same filing, usually).
 */
export function inferSplitsFromPerShare(observations: readonly PerShareObservation[]): SplitEvent[] {
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
  return clusterEvidence(evidence, 2);
}

type Evidence = { ratio: number; lo: number; hi: number; period: string };

/**
 * Evidence of one ratio with overlapping windows (lo, hi] is one split, kept once `needed`
 * distinct periods (or concepts) show it: its day is the first filing on the new basis, and it
 * is known from the filed day of the evidence that completed it.
 */
function clusterEvidence(evidence: Evidence[], needed: number): SplitEvent[] {
  evidence.sort((a, b) => a.hi - b.hi || a.lo - b.lo || a.ratio - b.ratio);
  const clusters: { ratio: number; lo: number; hi: number; periods: Set<string>; known: number }[] = [];
  for (const e of evidence) {
    const c = clusters.find((k) => k.ratio === e.ratio && Math.max(k.lo, e.lo) < Math.min(k.hi, e.hi));
    if (c) {
      c.lo = Math.max(c.lo, e.lo);
      c.hi = Math.min(c.hi, e.hi);
      if (!c.periods.has(e.period)) {
        c.periods.add(e.period);
        // Evidence arrives in order of its later filing: the one completing the count confirms it.
        if (c.periods.size === needed) c.known = e.hi;
      }
    } else clusters.push({ ratio: e.ratio, lo: e.lo, hi: e.hi, periods: new Set([e.period]), known: needed <= 1 ? e.hi : Infinity });
  }
  return clusters
    .filter((c) => c.periods.size >= needed)
    .map((c) => ({ day: c.hi, ratio: c.ratio, known: c.known }))
    .sort((a, b) => a.day - b.day);
}

/** One observation of a share count: which concept and period, when filed, how many shares. */
export type ShareCountObservation = { concept: string; kind: number | string; end: number; filed: number; value: number };

const COUNT_RATIOS = [2, 3, 4, 5, 6, 7, 8, 10, 15, 20, 25, 30, 40, 50, 100];
/** How far a count may drift from an exact split ratio between two filings (buybacks, issuance). */
export const COUNT_TOLERANCE = 0.04;

/** The clean split ratio (2, 3 … 100, or 1/2, 1/3 … 1/100) that turns count `before` into `after`, or null. */
export function cleanCountRatio(before: number, after: number): number | null {
  if (!(before > 0) || !(after > 0)) return null;
  const r = after / before;
  for (const c of COUNT_RATIOS) {
    if (Math.abs(r / c - 1) <= COUNT_TOLERANCE) return c;
    if (Math.abs(r * c - 1) <= COUNT_TOLERANCE) return 1 / c;
  }
  return null;
}

/**
 * Splits implied by share counts (shares outstanding, weighted average diluted shares): each
 * filing's current count (the latest period it reports) against the previous filing's; a change
 * by a clean split ratio is evidence of a split between the two filed days. One odd count is not
 * a split: the evidence is confirmed when the next filing keeps the new level (within 10 %), or
 * when the other count concept shows the same ratio over an overlapping window. The split is
 * known from the filed day of the confirming filing.
 */
export function inferSplitsFromShareCounts(observations: readonly ShareCountObservation[]): SplitEvent[] {
  // concept → filed day → the observation of the latest period in that filing (quarters, never
  // years or nine months for averages, so a year's average is not compared with a quarter's).
  const current = new Map<string, Map<number, ShareCountObservation>>();
  for (const o of observations) {
    if (!SHARE_COUNT_CONCEPTS.has(o.concept) || !(o.value > 0)) continue;
    if (o.kind === 2 || o.kind === 3 || o.kind === 'FY' || o.kind === 'N') continue;
    const byFiled = current.get(o.concept) ?? new Map<number, ShareCountObservation>();
    current.set(o.concept, byFiled);
    const prev = byFiled.get(o.filed);
    if (!prev || o.end > prev.end || (o.end === prev.end && o.value > prev.value)) byFiled.set(o.filed, o);
  }
  type Jump = { ratio: number; lo: number; hi: number; concept: string; confirmed: number };
  const jumps: Jump[] = [];
  for (const [concept, byFiled] of current) {
    // A filing reporting no newer period than the last one (a late amendment) is not "the next count".
    const seq: ShareCountObservation[] = [];
    for (const o of [...byFiled.values()].sort((a, b) => a.filed - b.filed))
      if (seq.length === 0 || o.end > seq[seq.length - 1].end) seq.push(o);
    for (let i = 1; i < seq.length; i++) {
      const ratio = cleanCountRatio(seq[i - 1].value, seq[i].value);
      if (ratio === null) continue;
      const next = seq[i + 1];
      const kept = next !== undefined && Math.abs(next.value / seq[i].value - 1) <= 0.1;
      jumps.push({ ratio, lo: seq[i - 1].filed, hi: seq[i].filed, concept, confirmed: kept ? next.filed : Infinity });
    }
  }
  jumps.sort((a, b) => a.hi - b.hi || a.lo - b.lo || a.ratio - b.ratio);
  const clusters: { ratio: number; lo: number; hi: number; concepts: Set<string>; known: number }[] = [];
  for (const j of jumps) {
    const c = clusters.find((k) => k.ratio === j.ratio && Math.max(k.lo, j.lo) < Math.min(k.hi, j.hi));
    if (!c) {
      clusters.push({ ratio: j.ratio, lo: j.lo, hi: j.hi, concepts: new Set([j.concept]), known: j.confirmed });
      continue;
    }
    c.lo = Math.max(c.lo, j.lo);
    c.hi = Math.min(c.hi, j.hi);
    c.known = Math.min(c.known, j.confirmed);
    if (!c.concepts.has(j.concept)) {
      c.concepts.add(j.concept);
      c.known = Math.min(c.known, j.hi);
    }
  }
  return clusters
    .filter((c) => Number.isFinite(c.known))
    .map((c) => ({ day: c.hi, ratio: c.ratio, known: c.known }))
    .sort((a, b) => a.day - b.day);
}

/**
 * Every split the filings imply: from restated per-share values and from share counts. The two
 * find the same split within a few months of each other; one split of a ratio is kept, dated at
 * the earlier first filing on the new basis and known at the earlier confirmation.
 */
export function inferSplits(
  observations: readonly PerShareObservation[],
  counts: readonly ShareCountObservation[] = observations,
): SplitEvent[] {
  const all = [...inferSplitsFromPerShare(observations), ...inferSplitsFromShareCounts(counts)].sort((a, b) => a.day - b.day);
  const out: SplitEvent[] = [];
  for (const s of all) {
    const same = out.find((o) => o.ratio === s.ratio && Math.abs(o.day - s.day) <= SAME_SPLIT_DAYS);
    if (same) {
      same.known = Math.min(knownDay(same), knownDay(s));
      same.day = Math.min(same.day, s.day);
    } else out.push({ ...s });
  }
  return out;
}

/** Evidence of one ratio this close (in days) is one split seen two ways. */
const SAME_SPLIT_DAYS = 200;

/** The facts' per-share values and share counts as observations (what inferSplits reads). */
export function factObservations(facts: FactColumns): PerShareObservation[] {
  const out: PerShareObservation[] = [];
  for (let i = 0; i < facts.value.length; i++) {
    if (!PER_SHARE_INDEX[facts.concept[i]] && !SHARE_COUNT_INDEX[facts.concept[i]]) continue;
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
