import { addDays, addMonths, toEpochDay, type IsoDate } from '../../dates';
import { nextWeekdayOnOrAfter } from './calendar';
import type { Rng } from './random';

// The fiscal calendar of one demo company: quarter ends, when each report is filed and under
// which form. 10-Qs come 25-45 days after the quarter, 10-Ks 45-90 days after the year.

export type FiscalQuarter = {
  periodStart: IsoDate;
  periodEnd: IsoDate;
  fiscalYear: number;
  fiscalPeriod: 'Q1' | 'Q2' | 'Q3' | 'Q4';
  form: '10-Q' | '10-K';
  filed: IsoDate;
};

function monthEnd(year: number, month: number): IsoDate {
  const first = `${year}-${String(month).padStart(2, '0')}-01`;
  return addDays(addMonths(first, 1), -1);
}

/** Quarters ending in (from, to], with filing dates drawn from `rng`. */
export function fiscalQuarters(rng: Rng, fiscalYearEndMonth: number, from: IsoDate, to: IsoDate): FiscalQuarter[] {
  const out: FiscalQuarter[] = [];
  let year = Number(from.slice(0, 4)) - 1;
  let month = fiscalYearEndMonth;
  const fromDay = toEpochDay(from);
  const toDay = toEpochDay(to);
  let previousEnd = monthEnd(year, month);
  for (;;) {
    month += 3;
    if (month > 12) {
      month -= 12;
      year += 1;
    }
    const periodEnd = monthEnd(year, month);
    const endDay = toEpochDay(periodEnd);
    if (endDay > toDay) break;
    const step = ((((month - fiscalYearEndMonth) % 12) + 12) % 12) / 3; // 0 = fiscal year end
    const fiscalPeriod = (['Q4', 'Q1', 'Q2', 'Q3'] as const)[step];
    const fiscalYear = month <= fiscalYearEndMonth ? year : year + 1;
    const form = fiscalPeriod === 'Q4' ? '10-K' : '10-Q';
    const lag = form === '10-K' ? rng.int(45, 88) : rng.int(25, 43);
    if (endDay > fromDay) {
      out.push({
        periodStart: addDays(previousEnd, 1),
        periodEnd,
        fiscalYear,
        fiscalPeriod,
        form,
        filed: nextWeekdayOnOrAfter(addDays(periodEnd, lag)),
      });
    }
    previousEnd = periodEnd;
  }
  return out;
}
