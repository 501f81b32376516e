import { MarketDataMissingError, marketReader, type MarketReader } from '../market/store/open-store.server';
import { parseSnapshotMeta, SNAPSHOT_META_SQL, snapshotFreshness, type SnapshotFreshness } from '../metrics/snapshot-meta';

// What is in the market store: snapshot id, counts, the import runs. One reading for the data
// CLI (`npm run data -- status`) and the admin page, so both always tell the same story.

export type ImportRun = {
  source: string;
  started_at: string;
  finished_at: string | null;
  /** running | done | failed */
  status: string;
  detail: string | null;
};

export type MarketStatus = {
  file: string;
  snapshotId: string | null;
  securities: number;
  listed: number;
  delisted: number;
  /** Securities of the fictional demo universe. */
  demo: number;
  /** Counts that can pass 2^53 are kept as decimal strings. */
  priceRows: string;
  firstPriceDate: string | null;
  lastPriceDate: string | null;
  facts: string;
  corporateActions: number;
  /** Dates with precomputed metric snapshots (0 before the first snapshot build). */
  snapshotDates: number;
  latestSnapshotDate: string | null;
  /** Whether the stored snapshots match this code's metrics engine and catalogue ("rebuild snapshots" when not). */
  snapshotFreshness: SnapshotFreshness;
  /** The newest run of each source, sources in alphabetical order. */
  lastImportPerSource: ImportRun[];
  /** The newest runs of any source, newest first. */
  recentRuns: ImportRun[];
  /** The newest failed runs, newest first. */
  latestErrors: ImportRun[];
};

export type MarketStatusResult = { state: 'ok'; status: MarketStatus } | { state: 'missing'; reason: string };

const RECENT_RUNS = 5;
const LATEST_ERRORS = 10;

type Reader = Pick<MarketReader, 'all' | 'file'>;

async function hasTable(reader: Reader, name: string): Promise<boolean> {
  const [row] = await reader.all<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = $1`,
    [name],
  );
  return Number(row?.n ?? 0) > 0;
}

const RUN_COLUMNS = `source, started_at, finished_at, status, detail`;

/** Reads the status from an open store (the CLI's own reader or the app's cached one). */
export async function readMarketStatus(reader: Reader): Promise<MarketStatus> {
  const [summary] = await reader.all<{
    snapshot_id: string | null;
    securities: number;
    delisted: number;
    demo: number;
    prices: string;
    first_date: string | null;
    last_date: string | null;
    facts: string;
    actions: number;
  }>(`
    SELECT (SELECT value FROM meta WHERE key = 'snapshot_id') AS snapshot_id,
           (SELECT count(*) FROM securities)::INTEGER AS securities,
           (SELECT count(*) FROM securities WHERE is_delisted)::INTEGER AS delisted,
           (SELECT count(*) FROM securities WHERE is_demo)::INTEGER AS demo,
           (SELECT count(*) FROM prices)::BIGINT::VARCHAR AS prices,
           (SELECT min(date) FROM prices) AS first_date,
           (SELECT max(date) FROM prices) AS last_date,
           (SELECT count(*) FROM facts)::BIGINT::VARCHAR AS facts,
           (SELECT count(*) FROM corporate_actions)::INTEGER AS actions`);
  let snapshotDates = 0;
  let latestSnapshotDate: string | null = null;
  // The snapshot tables are built after an import; a store fresh from a writer has none yet.
  if (await hasTable(reader, 'metric_snapshot_dates')) {
    const [s] = await reader.all<{ n: number; latest: string | null }>(
      `SELECT count(*)::INTEGER AS n, max(date) AS latest FROM metric_snapshot_dates`,
    );
    snapshotDates = Number(s?.n ?? 0);
    latestSnapshotDate = s?.latest ?? null;
  }
  const meta = parseSnapshotMeta(await reader.all<{ key: string; value: string | null }>(SNAPSHOT_META_SQL));
  const lastImportPerSource = await reader.all<ImportRun>(
    `SELECT ${RUN_COLUMNS} FROM import_runs
     QUALIFY row_number() OVER (PARTITION BY source ORDER BY started_at DESC, id) = 1
     ORDER BY source`,
  );
  const recentRuns = await reader.all<ImportRun>(
    `SELECT ${RUN_COLUMNS} FROM import_runs ORDER BY started_at DESC, id LIMIT ${RECENT_RUNS}`,
  );
  const latestErrors = await reader.all<ImportRun>(
    `SELECT ${RUN_COLUMNS} FROM import_runs WHERE status = 'failed' ORDER BY started_at DESC, id LIMIT ${LATEST_ERRORS}`,
  );
  const securities = Number(summary.securities);
  const delisted = Number(summary.delisted);
  return {
    file: reader.file,
    snapshotId: summary.snapshot_id ?? null,
    securities,
    listed: securities - delisted,
    delisted,
    demo: Number(summary.demo),
    priceRows: String(summary.prices),
    firstPriceDate: summary.first_date ?? null,
    lastPriceDate: summary.last_date ?? null,
    facts: String(summary.facts),
    corporateActions: Number(summary.actions),
    snapshotDates,
    latestSnapshotDate,
    snapshotFreshness: snapshotFreshness(meta, snapshotDates),
    lastImportPerSource,
    recentRuns,
    latestErrors,
  };
}

/**
 * The status of each store the app has open. A published store never changes (a write publishes a
 * new file, which the app opens with a new reader), so it is read once per store: its counts scan
 * the prices and facts, ~23 ms of every admin page on the 6,000 × 25 demo.
 */
const statusOfStore = new WeakMap<MarketReader, Promise<MarketStatus>>();

/** The app's view: the published store through the shared read-only reader, or why there is none. */
export async function marketStatus(file?: string): Promise<MarketStatusResult> {
  try {
    const reader = await marketReader(file);
    let status = statusOfStore.get(reader);
    if (!status) {
      status = readMarketStatus(reader);
      statusOfStore.set(reader, status);
      status.catch(() => statusOfStore.delete(reader));
    }
    return { state: 'ok', status: await status };
  } catch (e) {
    if (e instanceof MarketDataMissingError) return { state: 'missing', reason: e.reason };
    throw e;
  }
}
