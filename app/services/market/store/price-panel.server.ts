import type { DuckDBConnection } from '@duckdb/node-api';
import { cachedColumns } from './column-cache.server';
import { marketReader } from './open-store.server';
import { copyVector } from './vector-items.server';

// The whole price table as columns (every security, delisted ones included), sorted by
// permaticker then date: what a backtest values its holdings and its benchmark with. Read from
// DuckDB once per store version and kept as a column-cache file, so later runs (in any process)
// read it in one go. Series i is rows start[i] .. start[i+1]−1.

export type PricePanelColumns = {
  perm: Int32Array;
  /** Row offsets, one more than `perm`. */
  start: Int32Array;
  /** Epoch days. */
  days: Int32Array;
  /** Total-return index (the close where the store has none). */
  tri: Float64Array;
  /** Split-adjusted close. */
  close: Float64Array;
};

const DAY = `datediff('day', DATE '1970-01-01', date)::INTEGER`;

export async function readPricePanel(conn: DuckDBConnection): Promise<PricePanelColumns> {
  const where = 'close IS NOT NULL';
  const counted = await conn.runAndReadAll(`SELECT count(*)::INTEGER, count(DISTINCT permaticker)::INTEGER FROM prices WHERE ${where}`);
  const [rowsValue, seriesValue] = counted.getRows()[0];
  const n = Number(rowsValue);
  const perms = new Int32Array(n);
  const days = new Int32Array(n);
  const tri = new Float64Array(n);
  const close = new Float64Array(n);
  const result = await conn.run(
    `SELECT permaticker::INTEGER, ${DAY}, coalesce(tri, close)::DOUBLE, close::DOUBLE FROM prices WHERE ${where} ORDER BY permaticker, date`,
  );
  let at = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const rows = Math.min(chunk.rowCount, n - at);
    copyVector(chunk.getColumnVector(0), rows, perms, at);
    copyVector(chunk.getColumnVector(1), rows, days, at);
    copyVector(chunk.getColumnVector(2), rows, tri, at);
    copyVector(chunk.getColumnVector(3), rows, close, at);
    at += rows;
  }
  const count = Number(seriesValue);
  const perm = new Int32Array(count);
  const start = new Int32Array(count + 1);
  let s = -1;
  for (let r = 0; r < at; r++)
    if (r === 0 || perms[r] !== perms[r - 1]) {
      perm[++s] = perms[r];
      start[s] = r;
    }
  start[count] = at;
  return { perm, start, days: days.subarray(0, at), tri: tri.subarray(0, at), close: close.subarray(0, at) };
}

/** The column-cache name of the price panel. */
export const PRICE_PANEL_CACHE = 'prices';

/** The price panel of the store's current version (config().marketDb unless a file is given). */
export async function pricePanel(file?: string): Promise<PricePanelColumns> {
  const reader = await marketReader(file);
  return cachedColumns(reader.file, PRICE_PANEL_CACHE, async () => {
    const conn = await reader.connect();
    try {
      return await readPricePanel(conn);
    } finally {
      conn.closeSync();
    }
  });
}

const daysOfPanel = new WeakMap<PricePanelColumns, Int32Array>();

/** Every day on which some series of the panel has a bar, ascending (computed once per panel). */
export function panelDays(panel: PricePanelColumns): Int32Array {
  let hit = daysOfPanel.get(panel);
  if (hit) return hit;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < panel.perm.length; i++) {
    if (panel.start[i + 1] <= panel.start[i]) continue;
    lo = Math.min(lo, panel.days[panel.start[i]]);
    hi = Math.max(hi, panel.days[panel.start[i + 1] - 1]);
  }
  if (!Number.isFinite(lo)) hit = new Int32Array(0);
  else {
    const seen = new Uint8Array(hi - lo + 1);
    for (let r = 0; r < panel.days.length; r++) seen[panel.days[r] - lo] = 1;
    let n = 0;
    for (let d = 0; d < seen.length; d++) n += seen[d];
    hit = new Int32Array(n);
    for (let d = 0, k = 0; d < seen.length; d++) if (seen[d]) hit[k++] = lo + d;
  }
  daysOfPanel.set(panel, hit);
  return hit;
}
