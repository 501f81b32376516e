import { copyFileSync, rmSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { silentProgress } from '~/services/imports/progress.server';
import { buildSnapshots } from '~/services/metrics/snapshots.server';
import { ColumnChain } from '~/services/metrics/snapshot-deltas';
import { SNAPSHOT_TABLES } from '~/services/metrics/snapshot-schema';

// What tests of incremental snapshot builds compare: every snapshot table of a store, rows
// sorted, doubles with every bit and blobs as hex (the values table as the values it holds),
// against those of a full rebuild.

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

// The values table is compared as the values it stores: a column may be stored in full or as
// the changes from its block's previous date (snapshot-deltas.ts), and an incremental build starts
// a chain where a full build continues one, so the same values can be stored as other bytes.
const DECODED_VALUES = `SELECT v.date, v.block, v.metric, v.data, b.permatickers FROM metric_snapshot_values v
  JOIN metric_snapshot_blocks b USING (date, block) ORDER BY v.metric, v.block, v.date`;

function decodedValues(rows: unknown[][]): unknown[][] {
  const chains = new Map<string, ColumnChain>();
  return rows.map(([date, block, metric, data, permatickers]) => {
    const key = `${String(metric)}|${String(block)}`;
    let chain = chains.get(key);
    if (!chain) chains.set(key, (chain = new ColumnChain()));
    const perms = new Int32Array(new Uint8Array((permatickers as { bytes: Uint8Array }).bytes).buffer);
    const values = new Float64Array(perms.length);
    chain.decode((data as { bytes: Uint8Array }).bytes, perms, (date as { days: number }).days, values, 0);
    return [date, block, metric, Array.from(values, (x) => (Number.isNaN(x) ? 'NaN' : x))];
  });
}

export async function dumpSnapshotTables(file: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of SNAPSHOT_TABLES) {
    const rows =
      t === 'metric_snapshot_values'
        ? decodedValues(await storeRows(file, [DECODED_VALUES]))
        : await storeRows(file, [`SELECT * FROM ${t} ORDER BY ALL`]);
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
export async function fullRebuildTables(
  file: string,
  opts: { blockSize?: number; weekly?: boolean } = {},
): Promise<Record<string, string>> {
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
