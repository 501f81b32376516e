import { toEpochDay, type IsoDate } from '../dates';
import { CONCEPTS } from '../market/store/schema';
import { filingArchiveUrl } from '../market/sec-links';
import { firstQuarterOfYear, nineMonthsOfYear, withDerivedQ4, type Series } from '../metrics/engine/fundamental-state';
import {
  onBasis,
  perShareFactor,
  PER_SHARE_CONCEPTS,
  SHARE_COUNT_CONCEPTS,
  splitsFor,
  type SplitEvent,
} from '../metrics/engine/share-basis';
import { decimalsAfterFactor, reportedDecimals, roundToDecimals } from '../http/numbers';
import { ttmAt, ttmIndices } from '../metrics/engine/ttm';
import { growthRate, ratio } from '../stats';

// Financial statements from stored facts, as known on an as-of date: annual, quarterly and TTM
// columns over the full stored history, every cell carrying the filing it came from.
// Pure: rows in, tables out. Fourth quarters and trailing sums come from the metrics engine's
// own definitions (withDerivedQ4, ttmAt), so a statement and a screen never disagree; per-share
// values and share counts are on the share basis of the as-of date (adjusted for splits).

export type FactInput = {
  concept: string;
  value: number;
  period_start: IsoDate | null;
  period_end: IsoDate;
  fiscal_year: number | null;
  fiscal_period: string | null;
  form: string | null;
  filed: IsoDate;
  accession: string | null;
  /** The importer's tag; "(derived)" marks a quarter computed from year-to-date figures. */
  source_tag?: string | null;
};

export type StatementKind = 'income' | 'balance' | 'cash_flow';
export type PeriodKind = 'annual' | 'quarterly' | 'ttm';

export const STATEMENTS: Record<StatementKind, { label: string; lines: string[] }> = {
  income: {
    label: 'Income statement',
    lines: [
      'revenue',
      'cost_of_revenue',
      'gross_profit',
      'sga',
      'rnd',
      'operating_income',
      'interest_expense',
      'pretax_income',
      'income_tax',
      'net_income',
      'eps_basic',
      'eps_diluted',
      'shares_diluted_avg',
    ],
  },
  balance: {
    label: 'Balance sheet',
    lines: [
      'cash',
      'receivables',
      'inventory',
      'current_assets',
      'total_assets',
      'current_liabilities',
      'short_term_debt',
      'long_term_debt',
      'total_liabilities',
      'equity',
      'retained_earnings',
      'shares_outstanding',
    ],
  },
  cash_flow: {
    label: 'Cash flow',
    lines: ['operating_cash_flow', 'capex', 'free_cash_flow', 'depreciation', 'dividends_paid', 'share_buybacks'],
  },
};

export const PERIOD_LABELS: Record<PeriodKind, string> = { annual: 'Annual', quarterly: 'Quarterly', ttm: 'TTM' };

/** Lines computed from others (not stored facts). */
const DERIVED_LINES: Record<string, { label: string; unit: string }> = {
  free_cash_flow: { label: 'Free cash flow', unit: 'USD' },
};

export type Cell = {
  value: number;
  /** Filed date of the newest filing the value rests on. */
  filed: IsoDate;
  accession: string | null;
  form: string | null;
  url: string | null;
  /** Computed (Q4 = year − nine months, TTM sums, free cash flow), not a value as filed. */
  derived: boolean;
  /** The value as filed, before the split adjustment (per-share values and share counts); null when derived. */
  reported: number | null;
  /** How a derived value was computed (e.g. "FY − 9M", "FY − Q1 − Q2 − Q3", "sum of 4 quarters"); null when filed. */
  derivation: string | null;
  /**
   * Decimal places `value` is given to (−6: millions), as reported: a filed value keeps its
   * filing's precision (more places after a split divides it), a derived value the coarsest of
   * its parts', and `value` is rounded to it.
   */
  decimals: number;
};

export type Column = { key: IsoDate; label: string; periodEnd: IsoDate };
export type Line = { id: string; label: string; unit: string; cells: (Cell | null)[] };
export type RatioRow = { id: string; label: string; values: (number | null)[] };

export type Statement = {
  statement: StatementKind;
  period: PeriodKind;
  columns: Column[];
  lines: Line[];
  /** Year-over-year growth and margins (as fractions). */
  growth: RatioRow[];
  margins: RatioRow[];
};

type Known = {
  value: number;
  reported: number;
  /** Decimal places of `value` (see Cell.decimals). */
  decimals: number;
  derived: boolean;
  filed: IsoDate;
  accession: string | null;
  form: string | null;
  fiscalYear: number | null;
  fiscalPeriod: string | null;
  start: IsoDate | null;
};

const isFlow = (c: string) => (CONCEPTS as Record<string, { kind: string }>)[c]?.kind === 'flow';

/** FY a fiscal year, Q a quarter, N the nine months to date (per-share values), I an instant. */
type PeriodCode = 'FY' | 'Q' | 'N' | 'I';

function periodOf(f: FactInput): PeriodCode | null {
  if (!(f.concept in CONCEPTS)) return null;
  if (!isFlow(f.concept)) return 'I';
  if (f.fiscal_period === 'FY') return 'FY';
  if (f.fiscal_period === '9M') return 'N';
  if (f.fiscal_period && /^Q[1-4]$/.test(f.fiscal_period)) {
    if (f.period_start && toEpochDay(f.period_end) - toEpochDay(f.period_start) > 120) return null; // a year-to-date value
    return 'Q';
  }
  return null;
}

/**
 * The value of each (concept, period, end) known on the as-of date: the newest filing filed
 * before it (a fact is known from the day after its filed date), i.e. restatements included.
 */
export function latestKnown(facts: readonly FactInput[], asOf: IsoDate | null): Map<string, Known> {
  const out = new Map<string, Known>();
  const precision = reportedPrecision(facts, asOf);
  for (const f of facts) {
    if (asOf !== null && f.filed >= asOf) continue;
    if (!Number.isFinite(f.value)) continue;
    const p = periodOf(f);
    if (p === null) continue;
    const key = `${f.concept}|${p}|${f.period_end}`;
    const prev = out.get(key);
    if (prev && (prev.filed > f.filed || (prev.filed === f.filed && (prev.accession ?? '') >= (f.accession ?? '')))) continue;
    out.set(key, {
      value: f.value,
      reported: f.value,
      decimals: precision.get(unitOf(f.concept)) ?? 0,
      derived: (f.source_tag ?? '').includes('(derived)'),
      filed: f.filed,
      accession: f.accession,
      form: f.form,
      fiscalYear: f.fiscal_year,
      fiscalPeriod: f.fiscal_period,
      start: f.period_start,
    });
  }
  return out;
}

const unitOf = (concept: string) => (CONCEPTS as Record<string, { unit: string }>)[concept]?.unit ?? '';

/**
 * The precision a company reports each unit to (USD, USD/shares, shares): the finest among its
 * values of that unit known on the as-of date. The companyfacts API has no XBRL `decimals`, so
 * they are read back from the values: trailing zeros for amounts and counts (a company stating
 * its amounts in millions has every amount a multiple of 1,000,000; taking the finest over all
 * its filings keeps a round 1,000,000,000 from passing for billions), decimal places for
 * per-share values, never fewer than two (EPS is stated to the cent; 0.20 arrives as 0.2).
 */
function reportedPrecision(facts: readonly FactInput[], asOf: IsoDate | null): Map<string, number> {
  const out = new Map<string, number>([['USD/shares', 2]]);
  for (const f of facts) {
    if (!Number.isFinite(f.value) || f.value === 0 || (asOf !== null && f.filed >= asOf)) continue;
    const unit = unitOf(f.concept);
    const d = reportedDecimals(f.value);
    if (d > (out.get(unit) ?? Number.NEGATIVE_INFINITY)) out.set(unit, d);
  }
  return out;
}

/**
 * Moves per-share values and share counts onto the basis of the as-of date (or after every
 * split when there is none). Splits: the store's, else those the known filings imply.
 */
function onAsOfBasis(
  known: Map<string, Known>,
  facts: readonly FactInput[],
  asOf: IsoDate | null,
  storeSplits: readonly SplitEvent[],
): void {
  const cut = asOf === null ? Number.POSITIVE_INFINITY : toEpochDay(asOf);
  const splits = splitsFor(storeSplits, () =>
    facts
      .filter((f) => (PER_SHARE_CONCEPTS.has(f.concept) || SHARE_COUNT_CONCEPTS.has(f.concept)) && f.filed < (asOf ?? '9999-12-31'))
      .map((f) => ({
        concept: f.concept,
        kind: periodOf(f) ?? '',
        end: toEpochDay(f.period_end),
        filed: toEpochDay(f.filed),
        value: f.value,
      })),
  );
  if (splits.length === 0) return;
  for (const [key, k] of known) {
    const concept = key.slice(0, key.indexOf('|'));
    if (!PER_SHARE_CONCEPTS.has(concept) && !SHARE_COUNT_CONCEPTS.has(concept)) continue;
    const f = perShareFactor(splits, toEpochDay(k.filed), cut - 1);
    if (f === 1) continue;
    k.decimals = decimalsAfterFactor(k.decimals, PER_SHARE_CONCEPTS.has(concept) ? f : 1 / f);
    k.value = roundToDecimals(onBasis(concept, k.reported, splits, toEpochDay(k.filed), cut - 1), k.decimals);
  }
}

type Ctx = {
  known: Map<string, Known>;
  cik: string | null;
  isDemo: boolean;
  flows: Map<string, { series: Series; cells: Map<number, Cell> }>;
};

/** What the importer subtracted for a quarter it derived from year-to-date figures. */
const IMPORTER_DERIVATION: Record<string, string> = { Q2: '6M − Q1', Q3: '9M − 6M', Q4: 'FY − 9M' };

function cellOf(ctx: Ctx, k: Known): Cell {
  return {
    value: k.value,
    filed: k.filed,
    accession: k.accession,
    form: k.form,
    url: filingArchiveUrl(ctx.cik, k.accession, ctx.isDemo),
    derived: k.derived,
    reported: k.derived ? null : k.reported,
    derivation: k.derived ? (IMPORTER_DERIVATION[k.fiscalPeriod ?? ''] ?? 'year to date − previous year to date') : null,
    decimals: k.decimals,
  };
}

function get(ctx: Ctx, concept: string, p: PeriodCode, end: IsoDate): Known | undefined {
  return ctx.known.get(`${concept}|${p}|${end}`);
}

/**
 * Combines several cells into a derived one that rests on the newest of them, given to the
 * coarsest precision among them (a sum or difference is no more precise than its least precise
 * part: 0.17 − 0.117 = 0.05).
 */
function combine(parts: Cell[], value: number, derivation: string): Cell {
  const newest = parts.reduce((a, b) => (b.filed > a.filed ? b : a));
  const decimals = Math.min(...parts.map((p) => p.decimals));
  return { ...newest, value: roundToDecimals(value, decimals), derived: true, reported: null, derivation, decimals };
}

function endsOf(ctx: Ctx, p: 'FY' | 'Q'): Map<IsoDate, Known> {
  // One representative fact per period end (for labels): prefer revenue, else any flow.
  const out = new Map<IsoDate, Known>();
  for (const [key, k] of ctx.known) {
    const [concept, kind, end] = key.split('|');
    if (kind !== p) continue;
    if (!out.has(end) || concept === 'revenue') out.set(end, k);
  }
  return out;
}

/** Stored quarters (and balance-sheet-free fiscal years) of one flow, ascending by period end. */
function seriesOf(ctx: Ctx, concept: string, p: 'FY' | 'Q' | 'N'): { series: Series; cells: Cell[]; ends: IsoDate[] } {
  const rows: [IsoDate, Known][] = [];
  for (const [key, k] of ctx.known) {
    const [c, kind, end] = key.split('|');
    if (c === concept && kind === p) rows.push([end, k]);
  }
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    series: { end: rows.map(([e]) => toEpochDay(e)), val: rows.map(([, k]) => k.value) },
    cells: rows.map(([, k]) => cellOf(ctx, k)),
    ends: rows.map(([e]) => e),
  };
}

/**
 * Every quarter of a flow: filed quarters, and fourth quarters derived by the metrics engine's
 * withDerivedQ4 (the fiscal year minus its stored nine months for EPS, else minus its three
 * quarters; a Q4 the importer already derived as FY − 9M is a stored quarter marked derived).
 */
function quarterCells(ctx: Ctx, concept: string): { series: Series; cells: Map<number, Cell> } {
  const q = seriesOf(ctx, concept, 'Q');
  const y = seriesOf(ctx, concept, 'FY');
  const nine = seriesOf(ctx, concept, 'N');
  const average = concept === 'shares_diluted_avg';
  const merged = withDerivedQ4(q.series, y.series, average, Number.NEGATIVE_INFINITY, nine.series);
  const byEnd = new Map<number, Cell>();
  q.series.end.forEach((e, i) => byEnd.set(e, q.cells[i]));
  y.series.end.forEach((fyEnd, k) => {
    if (byEnd.has(fyEnd) || !merged.end.includes(fyEnd)) return;
    const value = merged.val[merged.end.indexOf(fyEnd)];
    const n = average ? -1 : nineMonthsOfYear(nine.series.end, fyEnd);
    let made: Cell;
    if (n >= 0) made = combine([y.cells[k], nine.cells[n]], value, 'FY − 9M');
    else {
      const a = firstQuarterOfYear(q.series.end, fyEnd);
      const parts = [y.cells[k], q.cells[a], q.cells[a + 1], q.cells[a + 2]];
      made = combine(parts, value, average ? 'FY average' : 'FY − Q1 − Q2 − Q3');
    }
    byEnd.set(fyEnd, made);
    // The TTM sums the quarters as shown (rounded to their precision).
    merged.val[merged.end.indexOf(fyEnd)] = made.value;
  });
  return { series: merged, cells: byEnd };
}

function quarterCellMap(ctx: Ctx, concept: string): ReturnType<typeof quarterCells> {
  const cached = ctx.flows.get(concept);
  if (cached) return cached;
  const made = quarterCells(ctx, concept);
  ctx.flows.set(concept, made);
  return made;
}

function quarterFlow(ctx: Ctx, concept: string, end: IsoDate): Cell | null {
  return quarterCellMap(ctx, concept).cells.get(toEpochDay(end)) ?? null;
}

/** The trailing twelve months ending at `end`: the metrics engine's ttmAt over the same quarters. */
function ttmFlow(ctx: Ctx, concept: string, end: IsoDate): Cell | null {
  const { series, cells } = quarterCellMap(ctx, concept);
  const day = toEpochDay(end);
  const idx = ttmIndices(series.end, day);
  if (idx === null || series.end[idx[0]] !== day) return null;
  const parts = idx.map((j) => cells.get(series.end[j])!);
  const average = concept === 'shares_diluted_avg';
  return combine(parts, ttmAt(series, day, average), average ? 'mean of 4 quarters' : 'sum of 4 quarters');
}

function quarterLabel(k: Known | undefined, end: IsoDate): string {
  if (k?.fiscalPeriod && k.fiscalYear) return `${k.fiscalPeriod === 'FY' ? 'Q4' : k.fiscalPeriod} ${k.fiscalYear}`;
  return end;
}

function lineCells(ctx: Ctx, concept: string, period: PeriodKind, columns: Column[]): (Cell | null)[] {
  if (concept === 'free_cash_flow') {
    const ocf = lineCells(ctx, 'operating_cash_flow', period, columns);
    const capex = lineCells(ctx, 'capex', period, columns);
    return columns.map((_, i) => {
      const a = ocf[i];
      const b = capex[i];
      if (!a || !b) return null;
      // Capex is stored as a positive outflow (fcf = operating cash flow − capex, see metrics/catalogue.ts).
      return combine([a, b], a.value - b.value, 'operating cash flow − capex');
    });
  }
  const flow = isFlow(concept);
  return columns.map((col) => {
    if (!flow) {
      const k = get(ctx, concept, 'I', col.periodEnd);
      return k ? cellOf(ctx, k) : null;
    }
    if (period === 'annual') {
      const k = get(ctx, concept, 'FY', col.periodEnd);
      return k ? cellOf(ctx, k) : null;
    }
    if (period === 'quarterly') return quarterFlow(ctx, concept, col.periodEnd);
    return ttmFlow(ctx, concept, col.periodEnd);
  });
}

/** Quarter ends known for flows (stored quarters, plus fiscal-year ends that complete a year). */
function allQuarterEnds(ctx: Ctx): IsoDate[] {
  const ends = new Set<IsoDate>([...endsOf(ctx, 'Q').keys(), ...endsOf(ctx, 'FY').keys()]);
  return [...ends].sort();
}

/** TTM columns need four consecutive quarters, each about three months after the previous. */
function ttmEnds(quarterEnds: IsoDate[]): IsoDate[] {
  const out: IsoDate[] = [];
  for (let i = 3; i < quarterEnds.length; i++) {
    const span = toEpochDay(quarterEnds[i]) - toEpochDay(quarterEnds[i - 3]);
    if (span >= 240 && span <= 300) out.push(quarterEnds[i]);
  }
  return out;
}

export function buildStatement(
  facts: readonly FactInput[],
  opts: {
    statement: StatementKind;
    period: PeriodKind;
    asOf: IsoDate | null;
    cik: string | null;
    isDemo: boolean;
    /** The store's split actions (ex-date, new shares per old share). */
    splits?: readonly { date: IsoDate; ratio: number }[];
  },
): Statement {
  const known = latestKnown(facts, opts.asOf);
  onAsOfBasis(
    known,
    facts,
    opts.asOf,
    (opts.splits ?? []).map((x) => ({ day: toEpochDay(x.date), ratio: x.ratio })),
  );
  const ctx: Ctx = { known, cik: opts.cik, isDemo: opts.isDemo, flows: new Map() };
  const quarterEnds = allQuarterEnds(ctx);
  const fyEnds = endsOf(ctx, 'FY');
  const qEnds = endsOf(ctx, 'Q');
  let columns: Column[];
  if (opts.period === 'annual') {
    columns = [...fyEnds.entries()].map(([end, k]) => ({ key: end, periodEnd: end, label: k.fiscalYear ? `FY ${k.fiscalYear}` : end }));
  } else {
    const ends = opts.period === 'ttm' ? ttmEnds(quarterEnds) : quarterEnds;
    columns = ends.map((end) => ({
      key: end,
      periodEnd: end,
      label: opts.period === 'ttm' ? `TTM ${end}` : quarterLabel(qEnds.get(end) ?? fyEnds.get(end), end),
    }));
  }
  // Balance sheets without flows (rare) still get columns from their instants.
  if (opts.statement === 'balance' && columns.length === 0) {
    const instants = new Set<IsoDate>();
    for (const key of ctx.known.keys()) if (key.split('|')[1] === 'I') instants.add(key.split('|')[2]);
    columns = [...instants].sort().map((end) => ({ key: end, periodEnd: end, label: end }));
  }
  columns.sort((a, b) => (a.periodEnd < b.periodEnd ? 1 : -1)); // newest first
  let lines: Line[] = STATEMENTS[opts.statement].lines.map((id) => {
    const c = (CONCEPTS as Record<string, { label: string; unit: string }>)[id] ?? DERIVED_LINES[id];
    return { id, label: c.label, unit: c.unit, cells: lineCells(ctx, id, opts.period, columns) };
  });
  // A period with nothing to show in this statement (e.g. a fiscal year end without its quarters
  // in the TTM view) is not a column.
  const keep = columns.map((_, i) => lines.some((l) => l.cells[i] !== null));
  columns = columns.filter((_, i) => keep[i]);
  lines = lines.map((l) => ({ ...l, cells: l.cells.filter((_, i) => keep[i]) }));
  const byId = new Map(lines.map((l) => [l.id, l]));
  const v = (id: string, i: number) => byId.get(id)?.cells[i]?.value ?? null;
  const growth: RatioRow[] = [];
  const margins: RatioRow[] = [];
  // Growth compares with the same period a year earlier: the next annual column, four quarters back.
  const previousIndex = (i: number): number | null => {
    const target = toEpochDay(columns[i].periodEnd) - 365;
    for (let j = i + 1; j < columns.length; j++) {
      const d = toEpochDay(columns[j].periodEnd);
      if (Math.abs(d - target) <= 20) return j;
      if (d < target - 20) break;
    }
    return null;
  };
  const growthOf = (id: string) =>
    columns.map((_, i) => {
      const j = previousIndex(i);
      return j === null ? null : growthRate(v(id, i), v(id, j));
    });
  if (opts.statement === 'income') {
    growth.push({ id: 'revenue_growth', label: 'Revenue growth (YoY)', values: growthOf('revenue') });
    growth.push({ id: 'net_income_growth', label: 'Net income growth (YoY)', values: growthOf('net_income') });
    growth.push({ id: 'eps_growth', label: 'EPS growth (YoY, diluted)', values: growthOf('eps_diluted') });
    margins.push({
      id: 'gross_margin',
      label: 'Gross margin',
      values: columns.map((_, i) => ratio(v('gross_profit', i), v('revenue', i))),
    });
    margins.push({
      id: 'operating_margin',
      label: 'Operating margin',
      values: columns.map((_, i) => ratio(v('operating_income', i), v('revenue', i))),
    });
    margins.push({ id: 'net_margin', label: 'Net margin', values: columns.map((_, i) => ratio(v('net_income', i), v('revenue', i))) });
  } else if (opts.statement === 'cash_flow') {
    growth.push({ id: 'ocf_growth', label: 'Operating cash flow growth (YoY)', values: growthOf('operating_cash_flow') });
    growth.push({ id: 'fcf_growth', label: 'Free cash flow growth (YoY)', values: growthOf('free_cash_flow') });
  } else {
    growth.push({ id: 'equity_growth', label: 'Equity growth (YoY)', values: growthOf('equity') });
    margins.push({
      id: 'debt_to_equity',
      label: 'Debt / equity',
      values: columns.map((_, i) => {
        const st = v('short_term_debt', i);
        const lt = v('long_term_debt', i);
        return st === null && lt === null ? null : ratio((st ?? 0) + (lt ?? 0), v('equity', i));
      }),
    });
    margins.push({
      id: 'current_ratio',
      label: 'Current ratio',
      values: columns.map((_, i) => ratio(v('current_assets', i), v('current_liabilities', i))),
    });
  }
  return { statement: opts.statement, period: opts.period, columns, lines, growth, margins };
}

export const STATEMENT_IDS = Object.keys(STATEMENTS) as StatementKind[];
export const PERIOD_IDS = Object.keys(PERIOD_LABELS) as PeriodKind[];
