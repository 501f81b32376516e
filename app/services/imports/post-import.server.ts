import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { buildValuationPanel } from '../company/valuation-panel.server';
import { buildStoredOverview } from '../market-overview/market-overview.server';
import { buildFilingsTable } from '../market/store/filings-table.server';
import { deferCheckpoints } from '../market/store/open-store.server';
import type { ProgressReporter } from '../market/store/records';
import { buildSnapshotsOn, type SnapshotBuildResult } from '../metrics/snapshots.server';
import { storeTradingCalendar } from '../metrics/trading-calendar.server';

// After data changes, the metrics snapshots (latest and month-end panels) and the tables derived
// from them and from the facts are rebuilt: the filings list, the valuation panel and the latest
// market overview, which the pages read instead of computing per request. Callers run it on the
// writer's work file before publishing (WritableStore.publish's beforeRename): the builder opens
// the file read-write, which DuckDB would refuse on the published file while the app has it open.
// Snapshots are rebuilt only from the first day whose inputs changed (`full` rebuilds every one).

export async function afterMarketDataChange(
  file: string,
  progress: ProgressReporter,
  opts: { full?: boolean } = {},
): Promise<{ snapshots: SnapshotBuildResult }> {
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  let snapshots: SnapshotBuildResult;
  try {
    // Checkpointed once, below: the work file is private until published (a failed build is thrown away).
    await deferCheckpoints(conn);
    progress.log('Building metric snapshots…');
    const reader = await instance.connect();
    try {
      snapshots = await buildSnapshotsOn(conn, { progress, incremental: !opts.full, reader });
    } finally {
      reader.closeSync();
    }
    progress.log(snapshotBuildLine(snapshots));
    progress.log('Building the filings list, valuation panel and market overview…');
    await buildDerivedTables(conn);
    await conn.run('CHECKPOINT');
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return { snapshots };
}

/** "Metric snapshots: 1 of 27 dates built (the others kept)." */
function snapshotBuildLine(r: SnapshotBuildResult): string {
  return r.fullReason === null
    ? `Metric snapshots: ${r.built} of ${r.dates} dates built, the others kept.`
    : `Metric snapshots: all ${r.dates} dates built (${r.fullReason}).`;
}

/** The tables the pages read, derived from the facts and the stored snapshots (built first). */
export async function buildDerivedTables(conn: DuckDBConnection): Promise<void> {
  await buildFilingsTable(conn);
  await buildValuationPanel(conn);
  // Last: the overview reads the filings table.
  await buildStoredOverview(conn);
  // The trading days, for the data as it is now (its snapshot id is set before this runs).
  await storeTradingCalendar(conn);
}
