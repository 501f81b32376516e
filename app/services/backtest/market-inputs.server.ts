import { fromEpochDay, toEpochDay, type IsoDate } from '../dates';
import { DomainError } from '../http/errors';
import { MarketDataMissingError, marketReader } from '../market/store/open-store.server';
import type { MetricSnapshot } from '../metrics/engine/types';
import { iterateSnapshots, loadSnapshot } from '../metrics/snapshots.server';
import { numericColumns } from '../metrics/store-loader.server';
import type { SecurityMeta } from '../screener/engine/types';
import { displayColumns, type Screen } from '../screener/model';
import { loadSecurityMeta, NO_MARKET_DATA } from '../screener/securities.server';
import { INVERSE_VOLATILITY_WINDOW, signalIndices, tradingCalendar, type BacktestParams, type PriceSeries } from './engine';

// Reads what a backtest needs from the market store: the price panel (total-return index and
// close) for every security, delisted ones included, the securities' descriptive fields, and
// one metric snapshot per signal date. Snapshots are the stored ones (month-ends, weekly when
// built, latest): a signal date uses the newest stored snapshot on or before it, so nothing
// known after the signal is used; a signal date with none before it is computed on demand.

/** Calendar days of prices loaded before the start, for the trailing 60-day volatility. */
const PRICE_WARMUP_DAYS = Math.ceil((INVERSE_VOLATILITY_WINDOW * 7) / 5) + 40;
/** How far back a stored snapshot may be for the first signal date. */
const SNAPSHOT_LOOKBACK_DAYS = 40;

export type MarketInputs = {
  prices: { series: PriceSeries[] };
  securities: SecurityMeta[];
  snapshotAt: (date: IsoDate, day: number) => MetricSnapshot;
  snapshotId: string;
};

export type DataRange = { first: IsoDate; last: IsoDate; snapshotId: string };

async function reader() {
  try {
    return await marketReader();
  } catch (e) {
    if (e instanceof MarketDataMissingError) throw new DomainError(503, NO_MARKET_DATA);
    throw e;
  }
}

/** First and last price dates of the store and its snapshot id. */
export async function marketDataRange(): Promise<DataRange> {
  const r = await reader();
  const [row] = await r.all<{ first: string | null; last: string | null; id: string | null }>(
    `SELECT CAST(min(date) AS VARCHAR) AS first, CAST(max(date) AS VARCHAR) AS last, (SELECT value FROM meta WHERE key = 'snapshot_id') AS id FROM prices`,
  );
  if (!row?.first || !row.last) throw new DomainError(503, NO_MARKET_DATA);
  return { first: row.first, last: row.last, snapshotId: row.id ?? 'unknown' };
}

/** Metrics a backtest of the screen reads: its rules, ranking and columns, and market cap. */
export function metricsFor(screen: Screen): string[] {
  const ids = displayColumns(screen);
  if (!ids.includes('market_cap')) ids.push('market_cap');
  return ids;
}

/** Restamps a stored snapshot with the signal date it stands for (delisting checks use it). */
function at(snapshot: MetricSnapshot, date: IsoDate, day: number): MetricSnapshot {
  return snapshot.day === day ? snapshot : { ...snapshot, date, day };
}

export async function loadMarketInputs(
  screen: Screen,
  params: BacktestParams,
  onProgress: (fraction: number, message: string) => Promise<void>,
): Promise<MarketInputs> {
  const r = await reader();
  const range = await marketDataRange();
  const start = toEpochDay(params.start);
  const end = toEpochDay(params.end);
  const securities = await loadSecurityMeta();
  await onProgress(0.02, 'Reading prices');

  const conn = await r.connect();
  let series: PriceSeries[];
  try {
    const { n, cols } = await numericColumns(
      conn,
      `SELECT permaticker, datediff('day', DATE '1970-01-01', date)::INTEGER, coalesce(tri, close), close
         FROM prices WHERE date BETWEEN $1::DATE AND $2::DATE AND close IS NOT NULL ORDER BY permaticker, date`,
      [fromEpochDay(start - PRICE_WARMUP_DAYS), params.end],
    );
    const [perm, day, tri, close] = cols;
    const meta = new Map(securities.map((s) => [s.permaticker, s]));
    series = [];
    for (let i = 0; i < n;) {
      let j = i;
      while (j < n && perm[j] === perm[i]) j++;
      const m = meta.get(perm[i]);
      // Delisted within the run: its last bar is its last price. Delisted later: still listed here.
      const delisted = Boolean(m?.isDelisted && m.lastPriceDate !== null && toEpochDay(m.lastPriceDate) <= end);
      series.push({
        permaticker: perm[i],
        days: Int32Array.from(day.subarray(i, j)),
        tri: tri.slice(i, j),
        close: close.slice(i, j),
        delisted,
      });
      i = j;
    }
  } finally {
    conn.closeSync();
  }
  await onProgress(0.2, 'Reading point-in-time snapshots');

  const calendar = tradingCalendar(series, start, end);
  const signals = calendar.length < 2 ? new Int32Array(0) : signalIndices(calendar, params.rebalance);
  const metrics = metricsFor(screen);
  const byDay = new Map<number, MetricSnapshot>();
  const stored: MetricSnapshot[] = [];
  for await (const s of iterateSnapshots({
    from: fromEpochDay(start - SNAPSHOT_LOOKBACK_DAYS),
    to: params.end,
    frequency: 'any',
    metrics,
  })) {
    stored.push(s);
    if (stored.length % 12 === 0)
      await onProgress(0.2 + 0.3 * Math.min(1, (s.day - start) / Math.max(1, end - start)), 'Reading point-in-time snapshots');
  }
  let k = -1;
  for (let i = 0; i < signals.length; i++) {
    const day = calendar[signals[i]];
    while (k + 1 < stored.length && stored[k + 1].day <= day) k++;
    const date = fromEpochDay(day);
    if (k >= 0) byDay.set(day, at(stored[k], date, day));
    else byDay.set(day, await loadSnapshot(date, { metrics, exact: true }));
  }
  await onProgress(0.5, 'Running the backtest');
  return {
    prices: { series },
    securities,
    snapshotId: range.snapshotId,
    snapshotAt: (date, day) => {
      const s = byDay.get(day);
      if (!s) throw new Error(`No snapshot was loaded for ${date}`);
      return s;
    },
  };
}

/**
 * The same inputs restricted to companies still listed at the end of the run: the survivors-only
 * comparison, which shows how much ignoring delisted companies would flatter a result.
 */
export function survivorsOnly(inputs: MarketInputs, end: IsoDate): MarketInputs {
  const endDay = toEpochDay(end);
  const keep = new Set<number>();
  for (const s of inputs.prices.series)
    if (!s.delisted && s.days.length > 0 && s.days[s.days.length - 1] >= endDay - 10) keep.add(s.permaticker);
  const cache = new Map<number, MetricSnapshot>();
  return {
    ...inputs,
    prices: { series: inputs.prices.series.filter((s) => keep.has(s.permaticker)) },
    securities: inputs.securities.filter((s) => keep.has(s.permaticker)),
    snapshotAt: (date, day) => {
      let out = cache.get(day);
      if (!out) {
        const full = inputs.snapshotAt(date, day);
        const rows: number[] = [];
        for (let r = 0; r < full.permatickers.length; r++) if (keep.has(full.permatickers[r])) rows.push(r);
        const values: Record<string, Float64Array> = {};
        for (const [id, col] of Object.entries(full.values)) values[id] = Float64Array.from(rows, (r) => col[r]);
        out = { ...full, permatickers: Int32Array.from(rows, (r) => full.permatickers[r]), values };
        cache.set(day, out);
      }
      return out;
    },
  };
}
