import { createHash } from 'node:crypto';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { factObservations, shareBasis, splitsFor } from './engine/share-basis';
import type { SecurityInput } from './engine/types';
import { parseSnapshotMeta, SNAPSHOT_META_SQL, snapshotMetaRows } from './snapshot-meta';
import { tableExists, type SecurityRow } from './store-loader.server';

// What the stored snapshots were built from, kept beside them (metric_snapshot_inputs), so the
// next build can rebuild only what changed. A snapshot on day d reads, per security, its prices
// and dividends up to d and its facts filed before d (point in time); across securities, the
// exchange calendar and the market's daily return up to d. Some inputs are read over the whole
// history: the split events (store actions, or inferred from every filing's restated EPS) put
// every per-share value on the basis after the last split, and a split-adjusted price without
// a raw close is read on the basis of the series' last bar. So:
//   - per security and month, a digest of its price rows, dividends and facts (by filed day):
//     a change in month M rebuilds that security's block from the first day of M on;
//   - per security, its last bar (kind l, month = that day): after its last bar a security is
//     read on that bar, before it on the exchange calendar with untraded days empty, so a bar
//     added after a gap changes the days since the old last bar;
//   - per security, its splits, its delisted flag and its share basis (the split events the
//     engine uses and the basis at its last bar): any change rebuilds its block on every date;
//   - the calendar by month and the market's returns by day: a change rebuilds every block from
//     that day on;
//   - the block partition (which securities are evaluated together) and the engine's meta: any
//     change rebuilds everything.
// A new split in a split-adjusted price file rewrites the security's whole adjusted history, so
// its digests change from its first month: that block, and through the market's returns every
// block, is rebuilt from there (in practice a full rebuild) — correct rather than fast.

/** Month of the inputs read over the whole history. */
export const WHOLE_HISTORY = '1900-01-01';

/** Per-security digests the SQL computes (share-basis keys `k` and the partition `b` are added from JS). */
export const INPUT_DIGEST_SQL = `
  SELECT permaticker, 'p' AS kind, date_trunc('month', date)::DATE AS month,
         sum(hash(date, close, close_unadj, volume, tri)::HUGEINT)::VARCHAR AS digest
    FROM prices GROUP BY ALL
  UNION ALL
  SELECT permaticker, 'd', date_trunc('month', date)::DATE, sum(hash(date, value)::HUGEINT)::VARCHAR
    FROM corporate_actions WHERE action = 'dividend' AND value IS NOT NULL GROUP BY ALL
  UNION ALL
  SELECT permaticker, 's', DATE '${WHOLE_HISTORY}', sum(hash(date, value)::HUGEINT)::VARCHAR
    FROM corporate_actions WHERE action = 'split' AND value > 0 GROUP BY ALL
  UNION ALL
  SELECT permaticker, 'f', date_trunc('month', filed)::DATE,
         sum(hash(concept, value, period_start, period_end, fiscal_period, filed, accession)::HUGEINT)::VARCHAR
    FROM facts GROUP BY ALL
  UNION ALL
  SELECT permaticker, 'l', max(date), '' FROM prices GROUP BY ALL
  UNION ALL
  SELECT permaticker, 'x', DATE '${WHOLE_HISTORY}', is_delisted::VARCHAR FROM securities
  UNION ALL
  SELECT -1, 'c', date_trunc('month', date)::DATE, sum(hash(date)::HUGEINT)::VARCHAR
    FROM (SELECT DISTINCT date FROM prices) GROUP BY ALL`;

/** The split events the engine uses for a security and the basis of its last bar. */
export function shareBasisKey(input: SecurityInput): string {
  const splits = splitsFor(input.splits, () => factObservations(input.facts));
  const lastBar = input.dates.length > 0 ? input.dates[input.dates.length - 1] : Number.NEGATIVE_INFINITY;
  return `${splits.map((s) => `${s.day}:${s.ratio}`).join(',')}|${shareBasis(splits, lastBar)}`;
}

/** Which securities are evaluated together: blocks of `blockSize` in permaticker order. */
export function partitionKey(securities: readonly SecurityRow[], blockSize: number): string {
  const h = createHash('sha256');
  h.update(`${blockSize}:`);
  for (const s of securities) h.update(`${s.permaticker},`);
  return h.digest('hex');
}

export type RebuildPlan =
  | { full: true; reason: string }
  | {
      full: false;
      /** Every block from this day on (calendar or market returns changed); Infinity when neither did. */
      globalFrom: number;
      /** Per security, the first day whose inputs changed (1900-01-01 for whole-history inputs). */
      securityFrom: Map<number, number>;
      /** Days the old snapshots are stored for. */
      storedDays: Set<number>;
      /** The old share-basis keys (compared once a block is loaded). */
      basisKeys: Map<number, string>;
    };

async function rows(conn: DuckDBConnection, sql: string, params?: DuckDBValue[]): Promise<DuckDBValue[][]> {
  return (await conn.runAndReadAll(sql, params)).getRows();
}

const DAY = (col: string) => `datediff('day', DATE '1970-01-01', ${col})::INTEGER`;

/**
 * What an incremental build must rebuild, comparing the new digests (in `${table}__new`, without
 * the share-basis keys yet) with the stored ones; full when the stored snapshots cannot be kept.
 */
export async function planRebuild(conn: DuckDBConnection, partition: string): Promise<RebuildPlan> {
  for (const t of ['metric_snapshot_inputs', 'metric_snapshot_dates', 'metric_snapshot_blocks', 'metric_snapshot_values', 'meta'])
    if (!(await tableExists(conn, t))) return { full: true, reason: 'no stored snapshots' };
  const meta = parseSnapshotMeta(
    (await rows(conn, SNAPSHOT_META_SQL)).map(([key, value]) => ({ key: String(key), value: value === null ? null : String(value) })),
  );
  const current = parseSnapshotMeta(snapshotMetaRows().map(([key, value]) => ({ key, value })));
  // The tables exist empty on a store whose first build this is (the build creates them first).
  const [[dates]] = await rows(conn, 'SELECT count(*)::INTEGER FROM metric_snapshot_dates');
  if (Number(dates) === 0) return { full: true, reason: 'no stored snapshots' };
  if (meta.engineVersion !== current.engineVersion || JSON.stringify(meta.metricIds) !== JSON.stringify(current.metricIds))
    return { full: true, reason: 'built by another metrics engine or catalogue' };
  const [stored] = await rows(conn, `SELECT digest FROM metric_snapshot_inputs WHERE kind = 'b'`);
  if (!stored) return { full: true, reason: 'no record of the inputs they were built from' };
  if (String(stored[0]) !== partition) return { full: true, reason: 'the set of securities with prices changed' };

  const changed = await rows(
    conn,
    // A last bar moving affects the days after the earlier of the two (kind l holds the day).
    `SELECT permaticker, min(${DAY('month')} + CASE WHEN kind = 'l' THEN 1 ELSE 0 END) FROM metric_snapshot_inputs__new n
       FULL OUTER JOIN (SELECT * FROM metric_snapshot_inputs WHERE kind NOT IN ('k', 'b')) o USING (permaticker, kind, month)
      WHERE n.digest IS DISTINCT FROM o.digest GROUP BY permaticker`,
  );
  const securityFrom = new Map<number, number>();
  let globalFrom = Number.POSITIVE_INFINITY;
  for (const [p, day] of changed) {
    if (Number(p) === -1) globalFrom = Math.min(globalFrom, Number(day));
    else securityFrom.set(Number(p), Number(day));
  }
  const [market] = await rows(
    conn,
    `SELECT min(${DAY('date')}) FROM metric_market_returns__new n FULL OUTER JOIN metric_market_returns o USING (date)
      WHERE n.ret IS DISTINCT FROM o.ret`,
  );
  if (market?.[0] !== null && market?.[0] !== undefined) globalFrom = Math.min(globalFrom, Number(market[0]));
  const storedDays = new Set((await rows(conn, `SELECT ${DAY('date')} FROM metric_snapshot_dates`)).map((r) => Number(r[0])));
  const basisKeys = new Map(
    (await rows(conn, `SELECT permaticker, digest FROM metric_snapshot_inputs WHERE kind = 'k'`)).map((r) => [Number(r[0]), String(r[1])]),
  );
  return { full: false, globalFrom, securityFrom, storedDays, basisKeys };
}
