import type { IsoDate } from '../dates';
import { mean, median } from '../stats';

// Pure pieces of the home page's market overview: the equal-weighted benchmark, sector
// aggregates and the biggest movers.

/** Daily mean returns → an index starting at 100 on the first date (its return is not applied). */
export function equalWeightIndex(returns: readonly { date: IsoDate; ret: number | null }[]): { date: IsoDate; value: number }[] {
  const out: { date: IsoDate; value: number }[] = [];
  let level = 100;
  returns.forEach((r, i) => {
    if (i > 0 && r.ret !== null && Number.isFinite(r.ret)) level *= 1 + r.ret;
    out.push({ date: r.date, value: level });
  });
  return out;
}

export type SectorRow = {
  sector: string;
  companies: number;
  medianReturn1m: number | null;
  medianReturnYtd: number | null;
  medianReturn1y: number | null;
  averageReturn1y: number | null;
};

export function sectorPerformance(
  rows: readonly { sector: string | null; ret1m: number | null; retYtd: number | null; ret1y: number | null }[],
): SectorRow[] {
  const groups = new Map<string, (typeof rows)[number][]>();
  for (const r of rows) {
    const key = r.sector ?? 'Unclassified';
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.entries()]
    .map(([sector, g]) => ({
      sector,
      companies: g.length,
      medianReturn1m: median(g.map((r) => r.ret1m)),
      medianReturnYtd: median(g.map((r) => r.retYtd)),
      medianReturn1y: median(g.map((r) => r.ret1y)),
      averageReturn1y: mean(g.map((r) => r.ret1y)),
    }))
    .sort(
      (a, b) =>
        (b.medianReturn1y ?? Number.NEGATIVE_INFINITY) - (a.medianReturn1y ?? Number.NEGATIVE_INFINITY) || a.sector.localeCompare(b.sector),
    );
}

/** The n largest and n smallest values (missing values never count as a move). Ties by key. */
export function movers<T extends { value: number | null; key: string }>(rows: readonly T[], n: number): { gainers: T[]; losers: T[] } {
  const valid = rows.filter((r) => r.value !== null && Number.isFinite(r.value));
  const up = [...valid].sort((a, b) => (b.value as number) - (a.value as number) || a.key.localeCompare(b.key));
  const down = [...valid].sort((a, b) => (a.value as number) - (b.value as number) || a.key.localeCompare(b.key));
  return {
    gainers: up.slice(0, n).filter((r) => (r.value as number) > 0),
    losers: down.slice(0, n).filter((r) => (r.value as number) < 0),
  };
}
