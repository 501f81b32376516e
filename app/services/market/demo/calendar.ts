import { addDays, fromEpochDay, toEpochDay, weekday, type IsoDate } from '../../dates';

// The demo exchange calendar: Monday to Friday without the fixed US market holidays (observed
// on the nearest weekday) and the floating Monday/Thursday ones. Good Friday is left out: it
// needs Easter, and the demo does not need to match a real calendar to the day.

function nthWeekday(year: number, month: number, day: number, n: number): IsoDate {
  const first = `${year}-${String(month).padStart(2, '0')}-01`;
  const offset = (day - weekday(first) + 7) % 7;
  return addDays(first, offset + 7 * (n - 1));
}

function lastWeekday(year: number, month: number, day: number): IsoDate {
  const nextMonth = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
  const last = addDays(nextMonth, -1);
  return addDays(last, -((weekday(last) - day + 7) % 7));
}

function observed(date: IsoDate): IsoDate {
  const w = weekday(date);
  if (w === 6) return addDays(date, -1);
  if (w === 0) return addDays(date, 1);
  return date;
}

export function holidays(year: number): Set<IsoDate> {
  return new Set([
    observed(`${year}-01-01`),
    nthWeekday(year, 1, 1, 3), // Martin Luther King Jr. Day
    nthWeekday(year, 2, 1, 3), // Presidents' Day
    lastWeekday(year, 5, 1), // Memorial Day
    observed(`${year}-07-04`),
    nthWeekday(year, 9, 1, 1), // Labor Day
    nthWeekday(year, 11, 4, 4), // Thanksgiving
    observed(`${year}-12-25`),
  ]);
}

export function isTradingDay(date: IsoDate): boolean {
  const w = weekday(date);
  if (w === 0 || w === 6) return false;
  return !holidays(Number(date.slice(0, 4))).has(date);
}

/** Trading days from `from` to `to`, both inclusive. */
export function tradingDays(from: IsoDate, to: IsoDate): IsoDate[] {
  const out: IsoDate[] = [];
  const cache = new Map<number, Set<IsoDate>>();
  for (let d = toEpochDay(from), end = toEpochDay(to); d <= end; d++) {
    const date = fromEpochDay(d);
    const w = weekday(date);
    if (w === 0 || w === 6) continue;
    const year = Number(date.slice(0, 4));
    let set = cache.get(year);
    if (!set) cache.set(year, (set = holidays(year)));
    if (!set.has(date)) out.push(date);
  }
  return out;
}

/** The last weekday on or before `date`. */
export function lastWeekdayOnOrBefore(date: IsoDate): IsoDate {
  let d = date;
  while (weekday(d) === 0 || weekday(d) === 6) d = addDays(d, -1);
  return d;
}

/** The first weekday on or after `date` (filings are not made at weekends). */
export function nextWeekdayOnOrAfter(date: IsoDate): IsoDate {
  let d = date;
  while (weekday(d) === 0 || weekday(d) === 6) d = addDays(d, 1);
  return d;
}
