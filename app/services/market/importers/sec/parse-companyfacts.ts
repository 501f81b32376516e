import { addDays, daysBetween, isIsoDate, type IsoDate } from '../../../dates';
import { reportedDecimals, roundToDecimals } from '../../../http/numbers';
import { ImportFileError, type FactRecord } from '../../store/records';
import { CONCEPTS, CONCEPT_IDS, type Concept } from '../../store/schema';
import { ANNUAL_FORMS, CONCEPT_TAGS, NON_ADDITIVE, QUARTERLY_FORMS } from './concept-map';
import { classifyDuration, FiscalCalendar, fiscalYearEnds } from './fiscal-calendar';

// Turns one SEC companyfacts payload into canonical facts, as filed: every value carries the
// filing (form, filed date, accession) that first made it known, and a later filing that changes
// a value adds a new fact instead of overwriting history (point in time).

export type CompanyFacts = { cik: string; entityName: string; facts: FactRecord[]; warnings: string[] };

type RawFact = { start?: IsoDate; end: IsoDate; val: number; accn: string; form: string; filed: IsoDate };

/** One observation of one concept, placed in the fiscal calendar. */
type Observation = {
  kind: Kind;
  tagRank: number;
  tag: string;
  start: IsoDate | null;
  end: IsoDate;
  value: number;
  accn: string;
  form: string;
  filed: IsoDate;
};

// Q1..Q4 are 3-month figures; Y2/Y3 the 6- and 9-month year-to-date figures of 10-Qs; FY the year.
type Kind = 'Q1' | 'Q2' | 'Q3' | 'Q4' | 'Y2' | 'Y3' | 'FY';
// 9M is the nine-month year-to-date figure, stored only for per-share values (EPS): they do not
// add up over quarters, so a fourth-quarter EPS is the year's EPS minus the nine months' EPS.
type Period = 'Q1' | 'Q2' | 'Q3' | 'Q4' | 'FY' | '9M';
const CLOSING_KIND: Record<Period, Kind> = { Q1: 'Q1', Q2: 'Y2', Q3: 'Y3', Q4: 'FY', FY: 'FY', '9M': 'Y3' };
/** The year-to-date figure a derived quarter subtracts (Q4 = FY − 9M). */
const OPENING_KIND: Partial<Record<Period, Kind>> = { Q2: 'Q1', Q3: 'Y2', Q4: 'Y3' };
type Derived = { value: number; start: IsoDate | null; end: IsoDate; tag: string; derived: boolean };

const SOURCE = 'sec';

export function parseCompanyFacts(raw: unknown, file: string, permaticker: number): CompanyFacts {
  const root = asObject(raw, file, 'the document');
  if (!('facts' in root) || !('cik' in root))
    throw new ImportFileError(file, null, 'not an SEC companyfacts document (no "cik" / "facts")');
  const cik = normaliseCik(root.cik, file);
  const entityName = typeof root.entityName === 'string' ? root.entityName : '';
  const taxonomies = asObject(root.facts, file, 'facts');
  const warnings: string[] = [];

  if (!('us-gaap' in taxonomies) && 'ifrs-full' in taxonomies) {
    warnings.push(`${file}: IFRS filer (ifrs-full); only the IFRS tags listed in the concept map are imported`);
  }

  const rawByTag = new Map<string, RawFact[]>();
  const annualEnds = new Map<IsoDate, number>();
  for (const [taxonomy, tags] of Object.entries(taxonomies)) {
    for (const [tag, body] of Object.entries(asObject(tags, file, `facts.${taxonomy}`))) {
      const units = asObject(asObject(body, file, `facts.${taxonomy}.${tag}`).units, file, `facts.${taxonomy}.${tag}.units`);
      for (const [unit, list] of Object.entries(units)) {
        if (!Array.isArray(list)) throw new ImportFileError(file, null, `facts.${taxonomy}.${tag}.units.${unit} is not a list`);
        const key = `${taxonomy}:${tag}|${unit}`;
        const facts: RawFact[] = [];
        list.forEach((entry, i) => {
          const fact = readFact(entry, file, `facts.${taxonomy}.${tag}.units.${unit}[${i}]`);
          facts.push(fact);
          if (fact.start && ANNUAL_FORMS.has(fact.form) && classifyDuration(fact.start, fact.end)?.months === 12) {
            annualEnds.set(fact.end, (annualEnds.get(fact.end) ?? 0) + 1);
          }
        });
        rawByTag.set(key, facts);
      }
    }
  }

  const calendar = new FiscalCalendar(fiscalYearEnds(annualEnds));
  if (!calendar.known) {
    warnings.push(`${file}: no annual report with a 12-month period; fiscal periods cannot be placed, no facts imported`);
    return { cik, entityName, facts: [], warnings };
  }

  const facts: FactRecord[] = [];
  for (const concept of CONCEPT_IDS) {
    const spec = CONCEPTS[concept];
    const observations: Observation[] = [];
    CONCEPT_TAGS[concept].forEach((tag, tagRank) => {
      for (const fact of rawByTag.get(`${tag}|${spec.unit}`) ?? []) {
        if (!ANNUAL_FORMS.has(fact.form) && !QUARTERLY_FORMS.has(fact.form)) continue;
        const obs = spec.kind === 'flow' ? placeFlow(fact, calendar) : placeInstant(fact);
        if (obs) observations.push({ ...obs, tagRank, tag, value: fact.val, accn: fact.accn, form: fact.form, filed: fact.filed });
      }
    });
    if (spec.kind === 'flow') facts.push(...flowFacts(concept, observations, calendar, permaticker));
    else facts.push(...instantFacts(concept, observations, calendar, permaticker));
  }
  return { cik, entityName, facts, warnings };
}

function placeFlow(fact: RawFact, calendar: FiscalCalendar): Pick<Observation, 'kind' | 'start' | 'end'> | null {
  if (!fact.start) return null;
  const duration = classifyDuration(fact.start, fact.end);
  const position = calendar.position(fact.end);
  if (!duration || !position) return null;
  const q = position.quarter;
  if (duration.months === 3) return { kind: `Q${q}`, start: fact.start, end: fact.end };
  // Year-to-date figures must start at the fiscal year start and end on the matching quarter.
  if (Math.abs(daysBetween(position.year.start, fact.start)) > 10 || duration.months !== q * 3) return null;
  const kind: Kind = q === 2 ? 'Y2' : q === 3 ? 'Y3' : 'FY';
  return { kind, start: fact.start, end: fact.end };
}

function placeInstant(fact: RawFact): Pick<Observation, 'kind' | 'start' | 'end'> | null {
  if (fact.start) return null;
  return { kind: 'FY', start: null, end: fact.end };
}

/** Groups observations by filing in the order filings became public. */
function byFiling(observations: Observation[]): Observation[][] {
  const groups = new Map<string, Observation[]>();
  for (const o of observations) {
    const key = `${o.filed}|${o.accn}`;
    const list = groups.get(key);
    if (list) list.push(o);
    else groups.set(key, [o]);
  }
  return [...groups.keys()].sort().map((k) => groups.get(k)!);
}

function flowFacts(concept: Concept, observations: Observation[], calendar: FiscalCalendar, permaticker: number): FactRecord[] {
  const byYear = new Map<number, Observation[]>();
  for (const o of observations) {
    const label = calendar.yearOf(o.end)!.label;
    const list = byYear.get(label);
    if (list) list.push(o);
    else byYear.set(label, [o]);
  }
  const additive = !NON_ADDITIVE.has(concept);
  const out: FactRecord[] = [];
  for (const [fiscalYear, list] of [...byYear.entries()].sort((a, b) => a[0] - b[0])) {
    const state = new Map<Kind, Observation>();
    const emitted = new Map<Period, number>();
    for (const filing of byFiling(list)) {
      // Within one filing the best-ranked tag wins; across filings the later filing wins.
      const best = new Map<Kind, Observation>();
      for (const o of filing) {
        const current = best.get(o.kind);
        if (!current || o.tagRank < current.tagRank) best.set(o.kind, o);
      }
      for (const [kind, o] of best) state.set(kind, o);
      const head = filing[0];
      const periods = quarterise(state, additive, CONCEPTS[concept].unit === 'USD/shares');
      for (const period of ['Q1', 'Q2', 'Q3', 'Q4', 'FY', '9M'] as const) {
        const p = periods[period];
        if (!p) continue;
        // A derived quarter belongs to a filing that reports one of its two inputs: the 10-K's FY
        // for Q4, and again a later 10-Q that restates the nine months, so that from then on Q4 is
        // the latest full year minus the latest nine months (never a restated year minus nine
        // months that were restated since). A filing reporting neither leaves it alone.
        const opening = OPENING_KIND[period];
        if (p.derived && !best.has(CLOSING_KIND[period]) && !(opening && best.has(opening))) continue;
        const last = emitted.get(period);
        if (last !== undefined && sameValue(last, p.value)) continue;
        emitted.set(period, p.value);
        out.push({
          permaticker,
          concept,
          value: p.value,
          unit: CONCEPTS[concept].unit,
          periodStart: p.start,
          periodEnd: p.end,
          fiscalYear,
          fiscalPeriod: period,
          form: head.form,
          filed: head.filed,
          accession: head.accn,
          source: SOURCE,
          sourceTag: p.derived ? `${p.tag} (derived)` : p.tag,
        });
      }
    }
  }
  return out;
}

/**
 * Quarterly and annual values from what is known so far: reported 3-month figures first, else the
 * difference of consecutive year-to-date figures (Q2 = 6M − Q1, Q3 = 9M − 6M, Q4 = FY − 9M).
 */
function quarterise(state: Map<Kind, Observation>, additive: boolean, perShare: boolean): Partial<Record<Period, Derived>> {
  const out: Partial<Record<Period, Derived>> = {};
  const direct = (kind: Kind): Derived | null => {
    const o = state.get(kind);
    return o ? { value: o.value, start: o.start, end: o.end, tag: o.tag, derived: false } : null;
  };
  const fy = direct('FY');
  if (fy) out.FY = fy;
  if (!additive) {
    const nine = perShare ? direct('Y3') : null;
    if (nine) out['9M'] = nine;
    for (const q of ['Q1', 'Q2', 'Q3', 'Q4'] as const) {
      const d = direct(q);
      if (d) out[q] = d;
    }
    return out;
  }
  // ytd[i] = cumulative figure through quarter i; ytd[0] is the empty start of the year.
  const ytd: (Derived | null)[] = [{ value: 0, start: null, end: '', tag: '', derived: true }];
  const ytdKinds: Kind[] = ['Q1', 'Y2', 'Y3', 'FY'];
  for (let i = 1; i <= 4; i++) {
    const quarter = direct(`Q${i}` as Kind);
    const prev = ytd[i - 1];
    const reported = direct(ytdKinds[i - 1]);
    ytd[i] = reported ?? (quarter && prev ? { ...quarter, value: prev.value + quarter.value, derived: true } : null);
    const current = ytd[i];
    const period = `Q${i}` as Period;
    if (quarter) out[period] = quarter;
    else if (current && prev) {
      out[period] = {
        value: exactDifference(current.value, prev.value),
        start: i === 1 ? current.start : addDays(prev.end, 1),
        end: current.end,
        tag: current.tag,
        derived: true,
      };
    }
  }
  return out;
}

function instantFacts(concept: Concept, observations: Observation[], calendar: FiscalCalendar, permaticker: number): FactRecord[] {
  const byEnd = new Map<IsoDate, Observation[]>();
  for (const o of observations) {
    const list = byEnd.get(o.end);
    if (list) list.push(o);
    else byEnd.set(o.end, [o]);
  }
  const out: FactRecord[] = [];
  for (const [end, list] of [...byEnd.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    // Cover-page counts (dei) are dated weeks after the quarter: they keep no fiscal period.
    const position = calendar.position(end, 0.1);
    let last: number | undefined;
    for (const filing of byFiling(list)) {
      const best = filing.reduce((a, b) => (b.tagRank < a.tagRank ? b : a));
      if (last !== undefined && sameValue(last, best.value)) continue;
      last = best.value;
      out.push({
        permaticker,
        concept,
        value: best.value,
        unit: CONCEPTS[concept].unit,
        periodStart: null,
        periodEnd: end,
        fiscalYear: position ? position.year.label : null,
        fiscalPeriod: position ? (position.quarter === 4 ? 'FY' : (`Q${position.quarter}` as Period)) : null,
        form: best.form,
        filed: best.filed,
        accession: best.accn,
        source: SOURCE,
        sourceTag: best.tag,
      });
    }
  }
  return out;
}

function readFact(entry: unknown, file: string, path: string): RawFact {
  const o = asObject(entry, file, path);
  const bad = (why: string): never => {
    throw new ImportFileError(file, null, `${path}: ${why}`);
  };
  if (typeof o.val !== 'number' || !Number.isFinite(o.val)) bad(`value ${JSON.stringify(o.val)} is not a number`);
  if (typeof o.end !== 'string' || !isIsoDate(o.end)) bad(`end ${JSON.stringify(o.end)} is not a date`);
  if (o.start !== undefined && (typeof o.start !== 'string' || !isIsoDate(o.start))) bad(`start ${JSON.stringify(o.start)} is not a date`);
  if (typeof o.start === 'string' && o.start > (o.end as string)) bad(`period starts ${o.start} after it ends ${String(o.end)}`);
  if (typeof o.filed !== 'string' || !isIsoDate(o.filed)) bad(`filed ${JSON.stringify(o.filed)} is not a date`);
  if (typeof o.accn !== 'string' || !/^\d{10}-\d{2}-\d{6}$/.test(o.accn)) bad(`accession ${JSON.stringify(o.accn)} is malformed`);
  if (typeof o.form !== 'string') bad('form is missing');
  return {
    start: o.start as IsoDate | undefined,
    end: o.end as IsoDate,
    val: o.val as number,
    accn: o.accn as string,
    form: o.form as string,
    filed: o.filed as IsoDate,
  };
}

export function normaliseCik(value: unknown, file: string): string {
  const digits = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.replace(/^CIK/i, '') : '';
  if (!/^\d{1,10}$/.test(digits)) throw new ImportFileError(file, null, `CIK ${JSON.stringify(value)} is not a number of up to 10 digits`);
  return digits.padStart(10, '0');
}

function asObject(value: unknown, file: string, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ImportFileError(file, null, `${what} is not an object`);
  return value as Record<string, unknown>;
}

function sameValue(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * A difference of two reported figures without binary noise (0.3 − 0.1 ≠ 0.2): rounded to the
 * finer of the two inputs' decimal places, so nothing the filing gave is lost (amounts are whole
 * dollars, and their differences exact). The statements then give a value its filing's precision.
 */
function exactDifference(a: number, b: number): number {
  return roundToDecimals(a - b, Math.max(reportedDecimals(a), reportedDecimals(b)));
}
