import { fromEpochDay, toEpochDay, type IsoDate } from '../../dates';
import { METRIC_IDS } from '../catalogue';
import { computeDividends } from './dividends';
import { computeFundamentals, type FundamentalContext } from './fundamentals';
import { FundamentalState } from './fundamental-state';
import { indices, metricIndex, N_METRICS } from './metric-index';
import { CONCEPT_IDS } from '../../market/store/schema';
import { FLOW } from './facts';
import { computeTechnicals, preparePrices, type PriceSeries, type TechnicalGroups } from './technicals';
import {
  factObservations,
  isPerShareConcept,
  isShareCountConcept,
  onFinalBasis,
  knownDay,
  shareBasis,
  splitsFor,
  splitsKnownOn,
  type SplitEvent,
} from './share-basis';
import type { FactColumns, MarketReturns, MetricSnapshot, SecurityInput, UniverseInput } from './types';
import { computeValuation } from './valuation';

// The point-in-time evaluation: every catalogue metric for every security listed on a day, using
// facts filed strictly before the day (known from filed + 1) and prices up to and including it.
//
// Evaluators keep per-security state between calls, so walking a sorted timeline (month-ends over
// 25 years, or every trading day of one security) applies each fact once and recomputes the
// filing-based metrics only when a filing becomes known. Going back in time resets the state.

/** Filings whose latest period ended longer ago than this are stale: no fundamentals, n/a. */
export const STALE_AFTER_DAYS = 550;

const J = indices(['last_filed', 'days_since_filing'] as const);

/** Raw per-share slots (EPS q / ttm / fy) and share-count slots: moved to each day's share basis. */
const PER_SHARE_SLOTS = CONCEPT_IDS.flatMap((c, i) => (isPerShareConcept(i) ? [`${c}_q`, `${c}_ttm`, `${c}_fy`] : [])).map(metricIndex);
const SHARE_SLOTS = CONCEPT_IDS.flatMap((c, i) =>
  !isShareCountConcept(i) ? [] : FLOW[i] ? [`${c}_q`, `${c}_ttm`, `${c}_fy`] : [c, `${c}_fy`],
).map(metricIndex);

function lastIndexOnOrBefore(dates: Int32Array, day: number): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dates[mid] <= day) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

export class SecurityEvaluator {
  readonly prices: PriceSeries;
  private state: FundamentalState;
  private readonly fundRow = new Float64Array(N_METRICS);
  private ctx: FundamentalContext | null = null;
  private lastDay = Number.NEGATIVE_INFINITY;
  private readonly factorAt = (day: number) => {
    const i = lastIndexOnOrBefore(this.prices.dates, day);
    if (this.prices.factor.length === 0) return 1;
    return this.prices.factor[Math.max(0, i)];
  };

  /** @param calendar the exchange's trading days: lookbacks count these (the security's own days without it) */
  constructor(
    readonly input: SecurityInput,
    calendar?: Int32Array,
  ) {
    this.prices = preparePrices(input.dates, input.close, input.closeUnadj, input.tri, input.volume, input.barsBefore ?? 0, calendar);
    this.allSplits = splitsFor(input.splits, () => factObservations(input.facts));
    this.knownDays = this.allSplits.map(knownDay).sort((a, b) => a - b);
    const n = input.dates.length;
    this.lastBar = n > 0 ? input.dates[n - 1] : Number.NEGATIVE_INFINITY;
    this.splits = [];
    this.facts = input.facts;
    this.finalBasis = 1;
    this.state = new FundamentalState(this.facts);
  }

  /** Every split, known or not yet; `splits` are those known on the day evaluated last. */
  private readonly allSplits: SplitEvent[];
  private readonly knownDays: number[];
  private knownCount = 0;
  private splits: SplitEvent[];
  private facts: FactColumns;
  private finalBasis: number;
  private readonly lastBar: number;

  /**
   * Puts the facts on the basis after every split known on `day` (EPS and average share counts
   * are summed and differenced inside the state: one basis for all of them, moved back to the
   * day's basis when written out). A split inferred from filings is used only from the day after
   * the filing that confirmed it: when that set changes the state starts again (rare: a few
   * splits per company).
   */
  private useSplitsKnownOn(day: number): void {
    let k = 0;
    while (k < this.knownDays.length && this.knownDays[k] < day) k++;
    if (k === this.knownCount) return;
    this.knownCount = k;
    this.splits = splitsKnownOn(this.allSplits, day);
    this.facts = onFinalBasis(this.input.facts, this.splits, (c) => isPerShareConcept(c) || isShareCountConcept(c));
    this.finalBasis = shareBasis(this.splits, Number.POSITIVE_INFINITY);
    this.state = new FundamentalState(this.facts);
    this.ctx = null;
  }

  get permaticker(): number {
    return this.input.permaticker;
  }

  /**
   * Index into `prices` of the day (its last exchange day on or before it, within the security's
   * bars) when listed that day, else -1.
   */
  listedIndex(day: number): number {
    const dates = this.input.dates;
    if (dates.length === 0 || dates[0] > day) return -1;
    if (this.input.delisted && dates[dates.length - 1] < day) return -1;
    return lastIndexOnOrBefore(this.prices.dates, day);
  }

  /** Fact index that last changed the known filings (for provenance), -1 before any. */
  get lastFact(): number {
    return this.state.lastFact;
  }

  /**
   * Writes every metric for `day` into `row`; false (row untouched) when not listed that day.
   * With `groups`, technicals outside them are skipped, and with `dividends` false the dividend
   * metrics (DIVIDEND_METRIC_IDS): their slots are left unspecified.
   */
  evaluateInto(day: number, row: Float64Array, market: MarketReturns | null, groups?: TechnicalGroups, dividends = true): boolean {
    const i = this.listedIndex(day);
    if (i < 0) return false;
    if (day < this.lastDay) {
      this.state = new FundamentalState(this.facts);
      this.ctx = null;
    }
    this.useSplitsKnownOn(day);
    this.lastDay = day;
    if (this.state.advanceTo(day) || this.ctx === null) {
      this.fundRow.fill(Number.NaN);
      // With known splits the share counts are already on one basis; else prices tell the splits.
      this.ctx = computeFundamentals(this.state.view(), this.fundRow, this.splits.length > 0 ? () => 1 : this.factorAt);
    }
    const ctx = this.ctx;
    const fresh = day - ctx.latestEnd <= STALE_AFTER_DAYS;
    if (fresh) {
      row.set(this.fundRow);
      if (this.finalBasis !== 1) {
        // Known on `day` = filed before it: the basis of a filing made the day before.
        const toDay = this.finalBasis / shareBasis(this.splits, day - 1);
        for (const m of PER_SHARE_SLOTS) row[m] *= toDay;
        for (const m of SHARE_SLOTS) row[m] /= toDay;
      }
    } else row.fill(Number.NaN);
    const lf = this.state.lastFact;
    if (lf >= 0) {
      row[J.last_filed] = this.input.facts.filed[lf];
      row[J.days_since_filing] = day - this.input.facts.filed[lf];
    }
    computeTechnicals(this.prices, i, day, market, row, groups);
    const factorNow = this.prices.factor[i];
    if (dividends) computeDividends(this.input.dividends, day, this.prices.price[i], factorNow, this.factorAt, row);
    if (fresh) {
      if (this.allSplits.length > 0) {
        // Shares are on the basis after every split known on the day (onFinalBasis): restate them
        // into the day's shares, and for market cap into the price's shares. A price without a raw
        // close is split-adjusted as of the series' last bar: the file itself carries every split
        // up to that bar, so its basis counts them all, known on the day or not.
        const rawPrice = Number.isFinite(this.input.closeUnadj[Math.min(i, this.input.closeUnadj.length - 1)]);
        const dayFactor = shareBasis(this.splits, day) / this.finalBasis;
        const priceFactor = rawPrice ? dayFactor : shareBasis(this.allSplits, this.lastBar) / this.finalBasis;
        computeValuation(row, ctx, this.prices.price[i], dayFactor, priceFactor);
      } else {
        const sharesFactor = Number.isNaN(ctx.sharesEnd) ? Number.NaN : this.factorAt(ctx.sharesEnd) / factorNow;
        computeValuation(row, ctx, this.prices.price[i], sharesFactor);
      }
    }
    return true;
  }
}

export class UniverseEvaluator {
  private readonly evaluators: SecurityEvaluator[];
  private readonly row = new Float64Array(N_METRICS);
  private rows: Float64Array | Float32Array | null = null;

  constructor(readonly universe: UniverseInput) {
    const calendar = universe.calendar ?? unionOfDays(universe.securities);
    this.evaluators = [...universe.securities].sort((a, b) => a.permaticker - b.permaticker).map((s) => new SecurityEvaluator(s, calendar));
  }

  evaluate(day: number): MetricSnapshot {
    const { permatickers, columns } = this.evaluateDays([day], (n) => new Float64Array(n))[0];
    const values: Record<string, Float64Array> = {};
    METRIC_IDS.forEach((id, m) => (values[id] = columns[m]));
    return { date: fromEpochDay(day), day, permatickers, values };
  }

  /**
   * Every metric on each of ascending days, each security evaluated on all of them before the
   * next: its prices, windows and filings stay in the processor's caches from one day to the
   * next. A day at a time across 250 securities, every day fetched each security's data from
   * memory again, and the 6,000 × 25-year build ran at half the speed. The values are the same
   * either way: a security's evaluator sees its days in the same order. `alloc` makes a day's
   * columns, all in one array (Float32Array for the stored form: the values are rounded to it as
   * they are written, as Float32Array.from would).
   */
  evaluateDays<C extends Float64Array | Float32Array>(days: readonly number[], alloc: (length: number) => C): DayColumns<C>[] {
    // A security's row after the one before it, turned into columns once the day is done: written
    // straight into 265 columns, each row's values went to 265 places ~50 KB apart, twelve days of
    // them at once (~13 MB), and the writes cost a tenth of an evaluator's time. The rows are kept
    // in one array from call to call (a new one per call raised the 6,000 × 25 build's peak).
    const listedOn = days.map((day) => {
      const listed: number[] = [];
      for (let s = 0; s < this.evaluators.length; s++) if (this.evaluators[s].listedIndex(day) >= 0) listed.push(s);
      return listed;
    });
    const total = listedOn.reduce((k, l) => k + l.length, 0) * N_METRICS;
    const kind = alloc(0);
    if (this.rows === null || this.rows.length < total || this.rows.constructor !== kind.constructor) this.rows = alloc(total);
    const scratch = this.rows as C;
    let offset = 0;
    const out = days.map((day, k) => {
      const listed = listedOn[k];
      const rows = scratch.subarray(offset, offset + listed.length * N_METRICS) as C;
      offset += rows.length;
      return { day, listed, next: 0, rows };
    });
    for (let s = 0; s < this.evaluators.length; s++) {
      const ev = this.evaluators[s];
      for (const d of out) {
        if (d.listed[d.next] !== s) continue;
        const r = d.next++;
        ev.evaluateInto(d.day, this.row, this.universe.market);
        // Rounded as an element assignment rounds (to Float32 for the stored form).
        d.rows.set(this.row, r * N_METRICS);
      }
    }
    return out.map(({ day, listed, rows }) => {
      const n = listed.length;
      const all = alloc(n * N_METRICS);
      for (let r = 0, at = 0; r < n; r++) for (let m = 0; m < N_METRICS; m++, at++) all[m * n + r] = rows[at];
      return {
        day,
        permatickers: Int32Array.from(listed, (s) => this.evaluators[s].permaticker),
        columns: METRIC_IDS.map((_, m) => all.subarray(m * n, (m + 1) * n) as C),
      };
    });
  }
}

/** One day of a universe: the listed securities' permatickers (ascending) and each catalogue metric's column, in METRIC_IDS order. */
export type DayColumns<C> = { day: number; permatickers: Int32Array; columns: C[] };

/** Every day on which one of the securities has a bar: the exchange calendar of a whole universe. */
export function unionOfDays(securities: readonly SecurityInput[]): Int32Array {
  const all = new Set<number>();
  for (const s of securities) for (const d of s.dates) all.add(d);
  return Int32Array.from(all).sort();
}

/** Every metric for every security listed on `date`. */
export function evaluateAt(universe: UniverseInput, date: IsoDate): MetricSnapshot {
  return new UniverseEvaluator(universe).evaluate(toEpochDay(date));
}

/** Snapshots for ascending dates in one incremental pass. */
export function* evaluateDates(universe: UniverseInput, dates: readonly IsoDate[]): Generator<MetricSnapshot> {
  const ev = new UniverseEvaluator(universe);
  for (const d of [...dates].sort()) yield ev.evaluate(toEpochDay(d));
}

/** Equal-weighted daily return of the universe (the market for beta), from total-return indices. */
export function equalWeightMarket(securities: readonly SecurityInput[]): MarketReturns | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const s of securities) {
    if (s.dates.length === 0) continue;
    min = Math.min(min, s.dates[0]);
    max = Math.max(max, s.dates[s.dates.length - 1]);
  }
  if (!Number.isFinite(min)) return null;
  const sum = new Float64Array(max - min + 1);
  const count = new Float64Array(max - min + 1);
  for (const s of securities) {
    const p = preparePrices(s.dates, s.close, s.closeUnadj, s.tri, s.volume);
    for (let k = 1; k < p.dates.length; k++) {
      const r = p.ret[k];
      if (!Number.isFinite(r)) continue;
      sum[p.dates[k] - min] += r;
      count[p.dates[k] - min]++;
    }
  }
  const ret = new Float64Array(max - min + 1);
  for (let d = 0; d < ret.length; d++) ret[d] = count[d] > 0 ? sum[d] / count[d] : Number.NaN;
  return { day0: min, ret };
}
