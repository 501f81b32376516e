// Wall-clock times in a named time zone (America/New_York for the US market), with daylight
// saving handled by Intl: no fixed UTC offset is right all year.

export type TimeOfDay = { hour: number; minute: number };

type LocalParts = { date: string; minutes: number };

function localParts(instant: number, timeZone: string): LocalParts {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** The local day (YYYY-MM-DD) once `at` has passed on it, else null: a job runs once per such day. */
export function dailyPeriod(now: number, at: TimeOfDay, timeZone: string): string | null {
  const local = localParts(now, timeZone);
  return local.minutes >= at.hour * 60 + at.minute ? local.date : null;
}

/** The UTC instant of `date` at `at` in `timeZone`. */
export function zonedInstant(date: string, at: TimeOfDay, timeZone: string): number {
  const wanted = Date.parse(`${date}T00:00:00Z`) + (at.hour * 60 + at.minute) * 60_000;
  // Guess with the offset of the wanted wall time read as UTC, then correct once more: the
  // second pass lands right across a daylight-saving change.
  let guess = wanted;
  for (let i = 0; i < 2; i++) {
    const local = localParts(guess, timeZone);
    const asUtc = Date.parse(`${local.date}T00:00:00Z`) + local.minutes * 60_000;
    guess += wanted - asUtc;
  }
  return guess;
}

/** The next time `at` comes round in `timeZone` strictly after `now`. */
export function nextDailyRun(now: number, at: TimeOfDay, timeZone: string): number {
  const today = localParts(now, timeZone).date;
  const todayRun = zonedInstant(today, at, timeZone);
  if (todayRun > now) return todayRun;
  const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return zonedInstant(tomorrow, at, timeZone);
}
