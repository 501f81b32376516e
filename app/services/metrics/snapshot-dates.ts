import { fromEpochDay } from '../dates';

// Which trading days get a stored snapshot: the last trading day of every calendar month, of
// every week (Monday–Sunday) when asked, and the last day of data.

export type SnapshotDay = {
  day: number;
  monthEnd: boolean;
  weekly: boolean;
  latest: boolean;
};

export function snapshotDays(tradingDays: readonly number[], weekly: boolean): SnapshotDay[] {
  const out: SnapshotDay[] = [];
  for (let i = 0; i < tradingDays.length; i++) {
    const d = tradingDays[i];
    const next = tradingDays[i + 1];
    const latest = next === undefined;
    const monthEnd = latest || fromEpochDay(d).slice(0, 7) !== fromEpochDay(next).slice(0, 7);
    // Epoch day 4 (1970-01-05) was a Monday: weeks are the Monday-based blocks of 7 days.
    const weekEnd = weekly && (latest || Math.floor((d - 4) / 7) !== Math.floor((next - 4) / 7));
    if (monthEnd || weekEnd) out.push({ day: d, monthEnd, weekly: weekEnd, latest });
  }
  return out;
}
