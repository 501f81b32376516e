import type { CsvTable } from '../http/csv';
import { getMetric } from '../metrics/catalogue';
import { exportMetricHeader, exportMetricValue } from '../metrics/format';
import { rowOf } from '../metrics/engine/snapshot';
import type { MetricSnapshot } from '../metrics/engine/types';
import type { SecurityMeta } from '../screener/engine/types';
import type { WatchlistItem, WatchlistSort } from './model';

// A watchlist as a table: its items joined with the securities and the latest snapshot's metric
// values, sorted with n/a last. Pure, so it is tested without a database.

export type WatchlistRow = Pick<SecurityMeta, 'permaticker' | 'ticker' | 'name' | 'sector'> & {
  note: string | null;
  addedAt: string;
  values: Record<string, number | null>;
};

export function watchlistRows(
  items: readonly WatchlistItem[],
  securities: ReadonlyMap<number, SecurityMeta>,
  snapshot: MetricSnapshot | null,
  columns: readonly string[],
  sort: WatchlistSort,
): WatchlistRow[] {
  const rows = items.map((item) => {
    const meta = securities.get(item.permaticker);
    const r = snapshot ? rowOf(snapshot, item.permaticker) : -1;
    const values: Record<string, number | null> = {};
    for (const c of columns) {
      const v = r >= 0 ? snapshot?.values[c]?.[r] : undefined;
      values[c] = v === undefined || Number.isNaN(v) ? null : v;
    }
    return {
      permaticker: item.permaticker,
      ticker: meta?.ticker ?? String(item.permaticker),
      name: meta?.name ?? '',
      sector: meta?.sector ?? null,
      note: item.note,
      addedAt: item.addedAt,
      values,
    };
  });
  const dir = sort.dir === 'asc' ? 1 : -1;
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort((a, b) => {
    let c = 0;
    if (sort.key === 'ticker') c = dir * text(a.ticker, b.ticker);
    else if (sort.key === 'name') c = dir * text(a.name, b.name);
    else if (sort.key === 'added_at') c = dir * text(a.addedAt, b.addedAt);
    else {
      const x = a.values[sort.key] ?? null;
      const y = b.values[sort.key] ?? null;
      if (x === null || y === null) c = x === y ? 0 : x === null ? 1 : -1;
      else c = dir * (x - y);
    }
    return c || text(a.ticker, b.ticker) || a.permaticker - b.permaticker;
  });
  return rows;
}

function metricHeader(id: string): string {
  const def = getMetric(id);
  return def ? exportMetricHeader(def) : id;
}

function metricCell(id: string, value: number | null | undefined): number | string | null {
  const def = getMetric(id);
  return def ? exportMetricValue(def, value) : (value ?? null);
}

/** The list as its CSV download shows it (written by http/csv.ts); an item without a note has an empty note. */
export function watchlistTable(rows: readonly WatchlistRow[], columns: readonly string[]): CsvTable {
  return {
    header: ['ticker', 'name', 'sector', 'note', 'added_at', ...columns.map((c) => metricHeader(c))],
    rows: rows.map((r) => [r.ticker, r.name, r.sector, r.note ?? '', r.addedAt, ...columns.map((c) => metricCell(c, r.values[c]))]),
  };
}
