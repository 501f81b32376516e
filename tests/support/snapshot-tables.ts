import { copyFileSync, rmSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { silentProgress } from '~/services/imports/progress.server';
import { buildSnapshots } from '~/services/metrics/snapshots.server';
import { SNAPSHOT_TABLES } from '~/services/metrics/snapshot-schema';

// What tests of incremental snapshot builds compare: every snapshot table of a store, rows
// sorted, doubles with every bit and blobs as hex, against those of a full rebuild.

export async function storeRows(file: string, statements: string[]): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    let last: unknown[][] = [];
    for (const s of statements) last = (await conn.runAndReadAll(s)).getRows();
    return last;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

export async function dumpSnapshotTables(file: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of SNAPSHOT_TABLES) {
    const rows = await storeRows(file, [`SELECT * FROM ${t} ORDER BY ALL`]);
    out[t] = JSON.stringify(rows, (_k, v: unknown) =>
      typeof v === 'number'
        ? v.toPrecision(17)
        : typeof v === 'bigint'
          ? String(v)
          : v && typeof v === 'object' && 'bytes' in v
            ? Buffer.from((v as { bytes: Uint8Array }).bytes).toString('hex')
            : v && typeof v === 'object' && 'days' in v
              ? String((v as { days: number }).days)
              : v,
    );
  }
  return out;
}

/** The snapshot tables a full rebuild of a copy of the store gives (the store is left as it is). */
export async function fullRebuildTables(file: string, opts: { blockSize?: number } = {}): Promise<Record<string, string>> {
  const copy = `${file}.full-rebuild.duckdb`;
  copyFileSync(file, copy);
  try {
    const r = await buildSnapshots({ marketDb: copy, ...opts, progress: silentProgress });
    if (r.built !== r.dates) throw new Error('A full rebuild kept stored dates.');
    return await dumpSnapshotTables(copy);
  } finally {
    rmSync(copy, { force: true });
    rmSync(`${copy}.wal`, { force: true });
  }
}
