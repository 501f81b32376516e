import { fromEpochDay, toEpochDay, type IsoDate } from '../dates';
import { DomainError } from '../http/errors';
import {
  closeMarketReader,
  MarketDataMissingError,
  marketReader,
  storeVersion,
  type MarketReader,
} from '../market/store/open-store.server';
import { forgetCachedColumns, hasCachedFile } from '../market/store/column-cache.server';
import { panelDays, PRICE_PANEL_CACHE, pricePanel } from '../market/store/price-panel.server';
import { COMPUTED_THREAD_BLOCK, COMPUTED_THREAD_MIN_DAYS, computeSnapshots } from '../metrics/computed-snapshots.server';
import { defaultSnapshotWorkers, openSnapshotEvaluators, type SnapshotEvaluators } from '../metrics/snapshot-evaluators.server';
import type { MetricSnapshot } from '../metrics/engine/types';
import { parseSnapshotMeta, SNAPSHOT_META_SQL, storedSnapshotsServe } from '../metrics/snapshot-meta';
import {
  storedDayIndex,
  storedSnapshotAt,
  storedSnapshotCacheNames,
  storedSnapshotColumns,
  type StoredSnapshotColumns,
} from '../metrics/snapshot-columns.server';
import { cachedTradingCalendar, listSecurities, loadMarketReturns, type SecurityRow } from '../metrics/store-loader.server';
import type { SecurityMeta } from '../screener/engine/types';
import { displayColumns, type Screen } from '../screener/model';
import { loadSecurityMeta, NO_MARKET_DATA } from '../screener/securities.server';
import { INVERSE_VOLATILITY_WINDOW, signalIndices, type BacktestParams, type PriceSeries } from './engine';
import { lowerBound } from './engine/calendar';
import { indexOf } from './engine/permaticker-index';

// Reads what a backtest needs from the market store: the price panel (total-return index and
// close) of every security, delisted ones included, the securities' descriptive fields, and the
// point-in-time snapshot of every signal day (the last trading day of each period). Prices come
// from the store's price-panel cache file, stored snapshots (month-ends, the latest day) from the
// snapshot column cache; other signal days (weekly, daily rebalancing) are computed for the
// metrics the screen uses, a window of days at a time, ahead of the engine (`prepare`).

/** Calendar days of prices kept before the start, for the trailing 60-exchange-day volatility. */
const PRICE_WARMUP_DAYS = Math.ceil((INVERSE_VOLATILITY_WINDOW * 7) / 5) + 40;
/**
 * Memory for computed snapshots held at once (days × rows × metrics × 8 bytes). Every window reads
 * its securities' history from the store again (~4.5 s on the 6,000 × 25 demo), so fewer, larger
 * windows are faster: a 25-year weekly 5-metric backtest there took 25.5 s in two windows at
 * 256 MB against 38.8 s in five at 64 MB, for ~100 MB more peak memory in the compute process.
 */
const COMPUTED_WINDOW_BYTES = 256 * 2 ** 20;

export type SignalSnapshots = {
  /** Signal days of the run, ascending (epoch days). */
  readonly days: Int32Array;
  /** Makes the snapshot of signal k (and the following ones of its window) available. */
  prepare(k: number): Promise<void>;
  /** The snapshot of a signal day that `prepare` made available. */
  at(day: number): MetricSnapshot;
  /** Signal days whose snapshot is computed rather than stored. */
  readonly computedDays: number;
};

export type MarketInputs = {
  prices: { series: PriceSeries[] };
  /** Every day with a bar in the store's price panel (the exchange calendar), ascending. */
  exchangeDays: Int32Array;
  securities: SecurityMeta[];
  snapshots: SignalSnapshots;
  snapshotId: string;
};

export type DataRange = { first: IsoDate; last: IsoDate; snapshotId: string };

async function reader(): Promise<MarketReader> {
  try {
    return await marketReader();
  } catch (e) {
    if (e instanceof MarketDataMissingError) throw new DomainError(503, NO_MARKET_DATA);
    throw e;
  }
}

const rangeCache = new Map<string, Promise<DataRange>>();

/** First and last price dates of the store and its snapshot id (kept per store version). */
export async function marketDataRange(): Promise<DataRange> {
  const r = await reader();
  const key = storeVersion(r.file);
  let hit = rangeCache.get(key);
  if (!hit) {
    rangeCache.clear();
    hit = r
      .all<{ first: string | null; last: string | null; id: string | null }>(
        `SELECT CAST(min(date) AS VARCHAR) AS first, CAST(max(date) AS VARCHAR) AS last, (SELECT value FROM meta WHERE key = 'snapshot_id') AS id FROM prices`,
      )
      .then(([row]) => {
        if (!row?.first || !row.last) throw new DomainError(503, NO_MARKET_DATA);
        return { first: row.first, last: row.last, snapshotId: row.id ?? 'unknown' };
      });
    rangeCache.set(key, hit);
    hit.catch(() => rangeCache.delete(key));
  }
  return hit;
}

/** Counts of listed companies by store version and period: every backtest asked for checks its size with one. */
const listedCache = new Map<string, Promise<number>>();
const LISTED_ENTRIES = 64;

/** Companies with prices in the period (listed at some point between the dates). */
export async function listedCompanies(start: IsoDate, end: IsoDate): Promise<number> {
  const r = await reader();
  const key = `${storeVersion(r.file)}\n${start}\n${end}`;
  let hit = listedCache.get(key);
  if (!hit) {
    hit = r
      .all<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM securities
          WHERE first_price_date IS NOT NULL AND first_price_date <= $2::DATE AND (last_price_date IS NULL OR last_price_date >= $1::DATE)`,
        [start, end],
      )
      .then(([row]) => Number(row?.n ?? 0));
    listedCache.set(key, hit);
    hit.catch(() => listedCache.delete(key));
    while (listedCache.size > LISTED_ENTRIES) listedCache.delete(listedCache.keys().next().value as string);
  }
  return hit;
}

/** Metrics a backtest of the screen reads: its rules, ranking and columns, and market cap. */
export function metricsFor(screen: Screen): string[] {
  const ids = displayColumns(screen);
  if (!ids.includes('market_cap')) ids.push('market_cap');
  return ids;
}

/** Series lists kept per panel and securities list, by date range (the engine keeps its work on a list by the list). */
const seriesLists = new WeakMap<object, { securities: readonly SecurityMeta[]; byRange: Map<string, PriceSeries[]> }>();
const SERIES_LISTS_KEPT = 8;

/**
 * Each security's bars from `from` to `to` as views into the panel (no copy). The same list for
 * the same panel, securities and range: the backtest engine then finds its sorted, aligned panel
 * made by an earlier run (simulate.ts, preparedPanel). Nothing writes to a list or its series.
 */
async function priceSeries(securities: readonly SecurityMeta[], from: number, to: number): Promise<PriceSeries[]> {
  const panel = await pricePanel();
  let kept = seriesLists.get(panel);
  if (!kept || kept.securities !== securities) {
    kept = { securities, byRange: new Map() };
    seriesLists.set(panel, kept);
  }
  const key = `${from}:${to}`;
  const hit = kept.byRange.get(key);
  if (hit) return hit;
  const list = seriesOfPanel(panel, securities, from, to);
  kept.byRange.set(key, list);
  if (kept.byRange.size > SERIES_LISTS_KEPT) kept.byRange.delete(kept.byRange.keys().next().value as string);
  return list;
}

function seriesOfPanel(
  panel: Awaited<ReturnType<typeof pricePanel>>,
  securities: readonly SecurityMeta[],
  from: number,
  to: number,
): PriceSeries[] {
  const meta = new Map(securities.map((s) => [s.permaticker, s]));
  const out: PriceSeries[] = [];
  /** The first bar in [a, b) on a day after `day` (b when none). */
  const firstAfter = (a: number, b: number, day: number) => {
    let lo = a;
    let hi = b;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (panel.days[mid] <= day) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (let i = 0; i < panel.perm.length; i++) {
    // Both ends by binary search: a run starting years into a long panel skips those bars unread.
    const a = firstAfter(panel.start[i], panel.start[i + 1], from - 1);
    const b = firstAfter(a, panel.start[i + 1], to);
    if (b <= a) continue;
    const m = meta.get(panel.perm[i]);
    // Delisted within the run: its last bar is its last price. Delisted later: still listed here.
    const delisted = Boolean(m?.isDelisted && m.lastPriceDate !== null && toEpochDay(m.lastPriceDate) <= to);
    out.push({
      permaticker: panel.perm[i],
      days: panel.days.subarray(a, b),
      tri: panel.tri.subarray(a, b),
      close: panel.close.subarray(a, b),
      delisted,
    });
  }
  return out;
}

/** The stored snapshots' meta rows of each open store (a reader is replaced when its file is). */
const snapshotMetaOf = new WeakMap<MarketReader, Promise<ReturnType<typeof parseSnapshotMeta>>>();

async function storedMetricsUsable(r: MarketReader, metrics: readonly string[]): Promise<boolean> {
  let meta = snapshotMetaOf.get(r);
  if (!meta) {
    meta = r.all<{ key: string; value: string | null }>(SNAPSHOT_META_SQL).then(parseSnapshotMeta);
    snapshotMetaOf.set(r, meta);
    meta.catch(() => snapshotMetaOf.delete(r));
  }
  return storedSnapshotsServe(await meta, metrics);
}

/**
 * The snapshots of the signal days: stored ones as views into the column cache, the others
 * computed in windows of consecutive computed days sized to COMPUTED_WINDOW_BYTES.
 */
async function signalSnapshots(
  r: MarketReader,
  days: Int32Array,
  metrics: readonly string[],
  windowBytes: number,
): Promise<SignalSnapshots> {
  // Snapshots stored by another version of the metrics engine are not what this one computes,
  // and a metric added since they were built is not in them: those days are computed instead.
  const stored: StoredSnapshotColumns | null = (await storedMetricsUsable(r, metrics)) ? await storedSnapshotColumns(metrics) : null;
  const storedAt = Int32Array.from(days, (d) => (stored ? storedDayIndex(stored.index, d) : -1));
  const computedIdx: number[] = [];
  for (let k = 0; k < days.length; k++) if (storedAt[k] < 0) computedIdx.push(k);
  let securities: SecurityRow[] | null = null;
  let context: { market: Awaited<ReturnType<typeof loadMarketReturns>>; calendar: Int32Array } | null = null;
  let window = new Map<number, MetricSnapshot>();
  const position = new Map<number, number>();
  days.forEach((d, k) => position.set(d, k));

  const computeFrom = async (k: number) => {
    const conn = await r.connect();
    // Evaluator threads for a long window's blocks (computed-snapshots.server.ts), gone with the
    // window and their heaps with them: starting them takes a fraction of a second against the
    // seconds such a window of a large universe takes; a small universe is one block, and a short
    // window is mostly reading, both done here.
    let threads: SnapshotEvaluators | null = null;
    try {
      securities ??= await listSecurities(conn);
      context ??= { market: await loadMarketReturns(conn), calendar: await cachedTradingCalendar(conn, storeVersion(r.file)) };
      const listedNow = securities.filter((s) => s.firstDay !== null && s.firstDay <= days[k]).length || 1;
      const perDay = listedNow * Math.max(1, metrics.length) * 8;
      const size = Math.max(8, Math.floor(windowBytes / perDay));
      const p = computedIdx.indexOf(k);
      const batch = computedIdx.slice(p, p + size);
      if (listedNow > COMPUTED_THREAD_BLOCK && batch.length >= COMPUTED_THREAD_MIN_DAYS)
        threads = await openSnapshotEvaluators(defaultSnapshotWorkers());
      const snaps = await computeSnapshots(
        conn,
        Int32Array.from(batch, (j) => days[j]),
        metrics,
        {
          securities,
          market: context.market,
          calendar: context.calendar,
          evaluators: threads ?? undefined,
        },
      );
      window = new Map(snaps.map((s) => [s.day, s]));
    } finally {
      conn.closeSync();
      await threads?.close();
    }
  };

  return {
    days,
    computedDays: computedIdx.length,
    async prepare(k) {
      if (storedAt[k] < 0 && !window.has(days[k])) await computeFrom(k);
    },
    at(day) {
      const k = position.get(day) ?? -1;
      if (k >= 0 && storedAt[k] >= 0 && stored) return storedSnapshotAt(stored, storedAt[k]);
      const s = window.get(day);
      if (!s) throw new Error(`No snapshot was prepared for ${fromEpochDay(day)}`);
      return s;
    },
  };
}

export async function loadMarketInputs(
  screen: Screen,
  params: BacktestParams,
  onProgress: (fraction: number, message: string) => Promise<void>,
  options: { computedWindowBytes?: number } = {},
): Promise<MarketInputs> {
  const r = await reader();
  const range = await marketDataRange();
  const start = toEpochDay(params.start);
  const end = toEpochDay(params.end);
  const securities = await loadSecurityMeta();
  await onProgress(0.02, 'Reading prices');
  const series = await priceSeries(securities, start - PRICE_WARMUP_DAYS, end);
  await onProgress(0.2, 'Reading point-in-time snapshots');
  const exchangeDays = panelDays(await pricePanel());
  const calendar = exchangeDays.subarray(lowerBound(exchangeDays, start), lowerBound(exchangeDays, end + 1));
  const signals = calendar.length < 2 ? new Int32Array(0) : signalIndices(calendar, params.rebalance);
  const snapshots = await signalSnapshots(
    r,
    Int32Array.from(signals, (s) => calendar[s]),
    metricsFor(screen),
    options.computedWindowBytes ?? COMPUTED_WINDOW_BYTES,
  );
  return { prices: { series }, exchangeDays, securities, snapshotId: range.snapshotId, snapshots };
}

/**
 * Builds the cache files of what every backtest reads, where the store's current version has
 * none: the price panel (on the 6,000 × 25 demo store ~11 s from the store, against ~1.4 s from
 * its file) and the stored snapshots' index with the market caps every run weighs or reports.
 * The compute process does it when it starts, so a user's first backtest reads files; it then
 * lets go of what this read (`releaseMarketInputs`), so a server whose users never backtest does
 * not hold a price panel.
 */
export async function prefetchMarketInputs(): Promise<void> {
  const r = await reader();
  const missing = (names: string[]) => names.some((name) => !hasCachedFile(r.file, name));
  if (missing([PRICE_PANEL_CACHE])) await pricePanel();
  if (missing(storedSnapshotCacheNames(['market_cap'])) && (await storedMetricsUsable(r, ['market_cap'])))
    await storedSnapshotColumns(['market_cap']);
}

/**
 * Lets go of the column sets this process keeps and of its store connection, whose DuckDB buffer
 * pool keeps the blocks such reads loaded (~700 MB after the 6,000 × 25 demo's price panel). Only
 * while no run reads them: the next run reads the files and opens the store again (milliseconds).
 */
export function releaseMarketInputs(): void {
  forgetCachedColumns();
  closeMarketReader();
}

/**
 * The same inputs restricted to companies still listed at the end of the run: the survivors-only
 * comparison, which shows how much ignoring delisted companies would flatter a result. The
 * snapshots are shared, not copied: a row whose security is not in `securities` is never in a
 * screen's universe (PreparedUniverse.known), so the screen sees exactly the survivors' rows.
 */
export function survivorsOnly(inputs: MarketInputs, end: IsoDate): MarketInputs {
  const endDay = toEpochDay(end);
  const kept: number[] = [];
  for (const s of inputs.prices.series)
    if (!s.delisted && s.days.length > 0 && s.days[s.days.length - 1] >= endDay - 10) kept.push(s.permaticker);
  const keep = Int32Array.from(kept).sort();
  const kept1 = (permaticker: number) => indexOf(keep, permaticker) >= 0;
  return {
    ...inputs,
    prices: { series: inputs.prices.series.filter((s) => kept1(s.permaticker)) },
    securities: inputs.securities.filter((s) => kept1(s.permaticker)),
  };
}
