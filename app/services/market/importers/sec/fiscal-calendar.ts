import { addDays, addMonths, daysBetween, type IsoDate } from '../../../dates';

// companyfacts' own `fy`/`fp` describe the FILING a fact came from, not the fact's period (a
// 2009 10-K carries 2007 and 2008 comparatives with fy=2009), so the fiscal year and quarter of
// each fact are worked out here from its dates and the company's fiscal year ends.

export type FiscalYear = { label: number; start: IsoDate; end: IsoDate };

/** A fact's place in the fiscal calendar. `quarter` is 1..4 (4 = the fiscal year end). */
export type FiscalPosition = { year: FiscalYear; quarter: 1 | 2 | 3 | 4; onQuarterEnd: boolean };

export type DurationClass = { months: 3 | 6 | 9 | 12 };

/**
 * Picks one fiscal year end per year from the end dates of annual-duration facts, most supported
 * first, so a stray 12-month figure (an acquired business, a pro-forma) cannot invent a fiscal year.
 */
export function fiscalYearEnds(candidates: Map<IsoDate, number>): IsoDate[] {
  const bySupport = [...candidates.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const accepted: IsoDate[] = [];
  for (const [end] of bySupport) {
    if (accepted.every((e) => Math.abs(daysBetween(e, end)) > 300)) accepted.push(end);
  }
  return accepted.sort();
}

/** Classifies a duration by its length; anything else (4-month stubs, 2-year totals) is null. */
export function classifyDuration(start: IsoDate, end: IsoDate): DurationClass | null {
  const days = daysBetween(start, end);
  if (days >= 80 && days <= 100) return { months: 3 };
  if (days >= 170 && days <= 196) return { months: 6 };
  if (days >= 260 && days <= 290) return { months: 9 };
  if (days >= 350 && days <= 380) return { months: 12 };
  return null;
}

/**
 * Fiscal years are named after the calendar year they end in, except 52/53-week years that end in
 * the first days of January, which belong to the year before (ending 2022-01-02 is fiscal 2021).
 */
export function fiscalYearLabel(end: IsoDate): number {
  const [y, m, d] = end.split('-').map(Number);
  return m === 1 && d <= 7 ? y - 1 : y;
}

export class FiscalCalendar {
  private readonly ends: IsoDate[];

  constructor(ends: IsoDate[]) {
    this.ends = [...ends].sort();
  }

  get known(): boolean {
    return this.ends.length > 0;
  }

  /** The fiscal year that contains `date` (a period end), extrapolating by 12 months past known ends. */
  yearOf(date: IsoDate): FiscalYear | null {
    if (this.ends.length === 0) return null;
    // A period end may fall a few days after the nominal year end in 52/53-week calendars.
    const probe = addDays(date, -6);
    let end = this.ends.find((e) => e >= probe) ?? null;
    if (end === null || daysBetween(probe, end) > 372) {
      const anchor = end ?? this.ends[this.ends.length - 1];
      end = anchor;
      if (anchor < probe) {
        while (end < probe) end = addMonths(end, 12);
      } else {
        while (addMonths(end, -12) >= probe) end = addMonths(end, -12);
      }
    }
    const previous = [...this.ends].reverse().find((e) => e < end!);
    const start =
      previous !== undefined && Math.abs(daysBetween(previous, end) - 365) <= 15 ? addDays(previous, 1) : addDays(addMonths(end, -12), 1);
    return { label: fiscalYearLabel(end), start, end };
  }

  /** Quarter of a period end within its fiscal year; null when the date is not near a quarter end. */
  position(date: IsoDate, tolerance = 0.25): FiscalPosition | null {
    const year = this.yearOf(date);
    if (!year) return null;
    const length = daysBetween(year.start, year.end) + 1;
    const frac = ((daysBetween(year.start, date) + 1) / length) * 4;
    const q = Math.round(frac);
    if (q < 1 || q > 4 || Math.abs(frac - q) > tolerance) return null;
    return { year, quarter: q as 1 | 2 | 3 | 4, onQuarterEnd: Math.abs(frac - q) <= 0.1 };
  }
}
