// Exchange-local calendar days as `YYYY-MM-DD` strings. Arithmetic goes through integer day
// numbers (days since 1970-01-01) computed in UTC, never through local-time Date objects.

export type IsoDate = string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d;
}

export function toEpochDay(date: IsoDate): number {
  const m = ISO_DATE.exec(date);
  if (!m) throw new RangeError(`Not a YYYY-MM-DD date: ${date}`);
  return Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY);
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/** Civil year, month (1–12) and day of an epoch day, by integer arithmetic (Howard Hinnant's days-to-civil). */
export function civilFromEpochDay(day: number): { year: number; month: number; day: number } {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day: doy - Math.floor((153 * mp + 2) / 5) + 1 };
}

/**
 * The day's `YYYY-MM-DD`, by integer arithmetic: backtests name every trading day of their
 * calendar, and a Date per day was a visible share of a run. Outside years 0–9999 (where ISO
 * strings take a sign and six digits) through Date.
 */
export function fromEpochDay(day: number): IsoDate {
  if (Number.isInteger(day)) {
    const c = civilFromEpochDay(day);
    if (c.year >= 0 && c.year <= 9999)
      return `${TWO_DIGITS[Math.floor(c.year / 100)]}${TWO_DIGITS[c.year % 100]}-${TWO_DIGITS[c.month]}-${TWO_DIGITS[c.day]}`;
  }
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromEpochDay(toEpochDay(date) + days);
}

export function daysBetween(from: IsoDate, to: IsoDate): number {
  return toEpochDay(to) - toEpochDay(from);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: IsoDate): number {
  return (((toEpochDay(date) + 4) % 7) + 7) % 7;
}

export function addMonths(date: IsoDate, months: number): IsoDate {
  const [y, m, d] = date.split('-').map(Number);
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = total % 12;
  const lastDay = new Date(Date.UTC(ny, nm + 1, 0)).getUTCDate();
  return `${String(ny).padStart(4, '0')}-${String(nm + 1).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

/** Today's calendar day on the exchange's clock (US markets: New York). */
export function todayIn(timeZone = 'America/New_York', now: Date = new Date()): IsoDate {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return parts;
}
