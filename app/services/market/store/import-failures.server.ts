import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { openWritableStore } from './open-store.server';

// A failed import throws its work copy away, so without this the store would never say that an
// import failed. The failure is written as an import_runs row through the usual copy-and-rename
// (readers hold the file open); the data itself and the snapshot id stay exactly as they were.

const MAX_DETAIL = 2000;

export async function recordFailedImport(
  file: string,
  run: { source: string; startedAt: string; error: string; finishedAt?: string },
): Promise<boolean> {
  // No store yet: creating one just to hold the failure would make "no market data" look like
  // an empty store, and `ensure-demo` would then skip the demo universe.
  if (!existsSync(file)) return false;
  const store = await openWritableStore(file);
  try {
    await store.connection.run(`INSERT INTO import_runs VALUES ($1, $2, $3, $4, 'failed', $5)`, [
      randomUUID(),
      run.source,
      run.startedAt,
      run.finishedAt ?? new Date().toISOString(),
      run.error.slice(0, MAX_DETAIL),
    ]);
  } catch (e) {
    await store.discard();
    throw e;
  }
  await store.publish();
  return true;
}
