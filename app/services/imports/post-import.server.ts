import { buildSnapshots } from '../metrics/snapshots.server';
import type { ProgressReporter } from '../market/store/records';

// After data changes, the metrics snapshots are rebuilt (latest and month-end panels). Callers
// run it on the writer's work file before publishing (WritableStore.publish's beforeRename): the
// builder opens the file read-write, which DuckDB would refuse on the published file while the
// app has it open.

export async function afterMarketDataChange(file: string, progress: ProgressReporter): Promise<{ snapshots: 'built' }> {
  progress.log('Building metric snapshots…');
  await buildSnapshots({ marketDb: file, progress });
  return { snapshots: 'built' };
}
