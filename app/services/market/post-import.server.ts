import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ProgressReporter } from './store/records';

// After data changes, the metrics snapshots are rebuilt (latest and month-end panels). The
// snapshot builder lives in the metrics service; it is looked up at run time so the data CLI
// works, and says so, when it is not there. Callers run it on the writer's work file before
// publishing (WritableStore.publish's beforeRename): the builder opens the file read-write,
// which DuckDB would refuse on the published file while the app has it open.

const SNAPSHOTS_MODULE = new URL('../metrics/snapshots.server.ts', import.meta.url);

type BuildSnapshotsOptions = { marketDb: string; progress: ProgressReporter };
type BuildSnapshots = (options: BuildSnapshotsOptions) => Promise<unknown>;

export async function afterMarketDataChange(
  file: string,
  progress: ProgressReporter,
): Promise<{ snapshots: 'built' | 'skipped'; result?: unknown }> {
  const modulePath = fileURLToPath(SNAPSHOTS_MODULE);
  if (!existsSync(modulePath)) {
    progress.log(`Metric snapshots not built: ${modulePath} does not exist yet.`);
    return { snapshots: 'skipped' };
  }
  const mod = (await import(/* @vite-ignore */ pathToFileURL(modulePath).href)) as { buildSnapshots?: BuildSnapshots };
  if (typeof mod.buildSnapshots !== 'function') {
    progress.log(`Metric snapshots not built: ${modulePath} does not export buildSnapshots.`);
    return { snapshots: 'skipped' };
  }
  progress.log('Building metric snapshots…');
  const result = await mod.buildSnapshots({ marketDb: file, progress });
  return { snapshots: 'built', result };
}
