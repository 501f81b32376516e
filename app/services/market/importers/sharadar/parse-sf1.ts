import { addDays, addMonths, daysBetween, type IsoDate } from '../../../dates';
import type { FactRecord } from '../../store/records';
import { CONCEPTS, type Concept } from '../../store/schema';
import { readCsvTable, type CsvRow } from '../csv-table';
import { FiscalCalendar, fiscalYearEnds } from '../sec/fiscal-calendar';
import { REQUIRED_COLUMNS } from './tables';

// SF1 fundamentals. Only the as-reported dimensions are point in time: ARQ (quarters) and ARY
// (years) keep each figure as first filed, with datekey = the filing date. The MR* dimensions
// carry restated figures under old dates (look-ahead), and ART is a sum of ARQ: both are skipped.

/** SF1 column per canonical concept; `negate` turns Sharadar's signed cash flows into payments. */
const COLUMNS: Partial<Record<Concept, { column: string; negate?: boolean }>> = {
  revenue: { column: 'revenue' },
  cost_of_revenue: { column: 'cor' },
  gross_profit: { column: 'gp' },
  sga: { column: 'sgna' },
  rnd: { column: 'rnd' },
  operating_income: { column: 'opinc' },
  interest_expense: { column: 'intexp' },
  pretax_income: { column: 'ebt' },
  income_tax: { column: 'taxexp' },
  net_income: { column: 'netinc' },
  eps_basic: { column: 'eps' },
  eps_diluted: { column: 'epsdil' },
  depreciation: { column: 'depamor' },
  operating_cash_flow: { column: 'ncfo' },
  capex: { column: 'capex', negate: true },
  dividends_paid: { column: 'ncfdiv', negate: true },
  shares_diluted_avg: { column: 'shareswadil' },
  shares_outstanding: { column: 'sharesbas' },
  cash: { column: 'cashneq' },
  receivables: { column: 'receivables' },
  inventory: { column: 'inventory' },
  current_assets: { column: 'assetsc' },
  total_assets: { column: 'assets' },
  current_liabilities: { column: 'liabilitiesc' },
  total_liabilities: { column: 'liabilities' },
  long_term_debt: { column: 'debtnc' },
  short_term_debt: { column: 'debtc' },
  equity: { column: 'equity' },
  retained_earnings: { column: 'retearn' },
};

export type Sf1Result = { facts: FactRecord[]; skippedDimensions: Map<string, number> };

type Row = { row: CsvRow; permaticker: number; dimension: 'ARQ' | 'ARY'; reportPeriod: IsoDate; filed: IsoDate; fx: number };

export function parseSf1(text: string, file: string, byTicker: Map<string, number>): Sf1Result {
  const t = readCsvTable(text, file, REQUIRED_COLUMNS.SF1);
  const skippedDimensions = new Map<string, number>();
  const rows: Row[] = [];
  const seen = new Set<string>();
  for (const row of t.rows) {
    const ticker = t.text(row, 'ticker').toUpperCase();
    const permaticker = byTicker.get(ticker);
    if (permaticker === undefined) t.fail(row, `unknown ticker "${ticker}" (not in TICKERS)`);
    const dimension = t.text(row, 'dimension').toUpperCase();
    if (!['ARQ', 'ARY', 'ART', 'MRQ', 'MRY', 'MRT'].includes(dimension))
      t.fail(row, `dimension "${dimension}" is not one of ARQ ARY ART MRQ MRY MRT`);
    const reportPeriod = t.date(row, 'reportperiod') ?? t.date(row, 'calendardate', true);
    const filed = t.date(row, 'datekey', true);
    if (filed < reportPeriod) t.fail(row, `datekey ${filed} is before the period ends (${reportPeriod})`);
    if (dimension !== 'ARQ' && dimension !== 'ARY') {
      skippedDimensions.set(dimension, (skippedDimensions.get(dimension) ?? 0) + 1);
      continue;
    }
    const key = `${permaticker}|${dimension}|${reportPeriod}|${filed}`;
    if (seen.has(key)) t.fail(row, `${ticker} ${dimension} ${reportPeriod} filed ${filed} appears twice`);
    seen.add(key);
    // Non-USD filers report in their own currency; fxusd converts to dollars.
    const fx = t.has('fxusd') ? (t.number(row, 'fxusd') ?? 1) : 1;
    if (!(fx > 0)) t.fail(row, `fxusd ${fx} is not positive`);
    rows.push({ row, permaticker: permaticker!, dimension: dimension as 'ARQ' | 'ARY', reportPeriod, filed, fx });
  }

  const facts: FactRecord[] = [];
  const byPermaticker = new Map<number, Row[]>();
  for (const r of rows) {
    const list = byPermaticker.get(r.permaticker);
    if (list) list.push(r);
    else byPermaticker.set(r.permaticker, [r]);
  }
  for (const [permaticker, list] of byPermaticker) {
    const annualEnds = new Map<IsoDate, number>();
    for (const r of list) if (r.dimension === 'ARY') annualEnds.set(r.reportPeriod, (annualEnds.get(r.reportPeriod) ?? 0) + 1);
    const calendar = new FiscalCalendar(fiscalYearEnds(annualEnds));
    const quarterEnds = [...new Set(list.filter((r) => r.dimension === 'ARQ').map((r) => r.reportPeriod))].sort();
    const instantsSeen = new Set<string>();
    // ARQ first, so a year-end balance sheet comes from the quarter row and the ARY copy is a duplicate.
    const ordered = [...list].sort((a, b) => (a.dimension === b.dimension ? 0 : a.dimension === 'ARQ' ? -1 : 1));
    for (const r of ordered) {
      const place = placeRow(r, calendar, quarterEnds);
      for (const [concept, spec] of Object.entries(COLUMNS) as [Concept, { column: string; negate?: boolean }][]) {
        if (!t.has(spec.column)) continue;
        const raw = t.number(r.row, spec.column);
        if (raw === null) continue;
        const unit = CONCEPTS[concept].unit;
        const value = (spec.negate ? -raw : raw) * (unit === 'shares' ? 1 : r.fx);
        const instant = CONCEPTS[concept].kind === 'instant';
        if (instant) {
          const key = `${concept}|${r.reportPeriod}|${r.filed}`;
          if (instantsSeen.has(key)) continue;
          instantsSeen.add(key);
        }
        facts.push({
          permaticker,
          concept,
          value: value === 0 ? 0 : value,
          unit,
          periodStart: instant ? null : place.start,
          periodEnd: r.reportPeriod,
          fiscalYear: place.fiscalYear,
          fiscalPeriod: instant && place.period === 'Q4' ? 'FY' : place.period,
          form: null,
          filed: r.filed,
          accession: null,
          source: 'sharadar',
          sourceTag: `sharadar:${r.dimension}:${spec.column}`,
        });
      }
    }
  }
  return { facts, skippedDimensions };
}

function placeRow(r: Row, calendar: FiscalCalendar, quarterEnds: IsoDate[]) {
  if (r.dimension === 'ARY') {
    const year = calendar.yearOf(r.reportPeriod);
    return {
      fiscalYear: year?.label ?? Number(r.reportPeriod.slice(0, 4)),
      period: 'FY' as const,
      start: year?.start ?? addDays(addMonths(r.reportPeriod, -12), 1),
    };
  }
  const previous = [...quarterEnds].reverse().find((e) => e < r.reportPeriod);
  const start =
    previous !== undefined && Math.abs(daysBetween(previous, r.reportPeriod) - 91) <= 10
      ? addDays(previous, 1)
      : addDays(addMonths(r.reportPeriod, -3), 1);
  const position = calendar.known ? calendar.position(r.reportPeriod) : null;
  if (position) {
    // The first quarter starts with the fiscal year, even when the quarter before is not in the file.
    const first = position.quarter === 1 ? position.year.start : start;
    return { fiscalYear: position.year.label, period: `Q${position.quarter}` as 'Q1' | 'Q2' | 'Q3' | 'Q4', start: first };
  }
  // Without annual rows the fiscal calendar is unknown: fall back to calendar quarters.
  const month = Number(r.reportPeriod.slice(5, 7));
  return { fiscalYear: Number(r.reportPeriod.slice(0, 4)), period: `Q${Math.ceil(month / 3)}` as 'Q1' | 'Q2' | 'Q3' | 'Q4', start };
}
