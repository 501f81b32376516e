import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { MARKET_SCHEMA_VERSION } from './schema';

// The data snapshot id is a content hash: the same data gives the same id, any change gives a
// new one. Each data table contributes its row count and the sum of its row hashes (order-free,
// so insertion order and storage layout do not matter); sha256 ties them together.
// Only the source data counts: bookkeeping (meta, import_runs) holds clock times, and derived
// tables (metric snapshots) are a function of the data, so rebuilding them keeps the id.

export const SNAPSHOT_TABLES = ['securities', 'ticker_history', 'prices', 'corporate_actions', 'facts'] as const;

export async function tableChecksums(
  connection: DuckDBConnection,
  tables: readonly string[] = SNAPSHOT_TABLES,
): Promise<{ table: string; rows: string; sum: string }[]> {
  const out: { table: string; rows: string; sum: string }[] = [];
  for (const table of tables) {
    const quoted = `"${table.replaceAll('"', '""')}"`;
    const reader = await connection.runAndReadAll(`SELECT count(*)::VARCHAR, coalesce(sum(hash(t))::VARCHAR, '0') FROM ${quoted} AS t`);
    const [rows, sum] = reader.getRows()[0].map(String);
    out.push({ table, rows, sum });
  }
  return out;
}

export async function computeSnapshotId(connection: DuckDBConnection): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`schema:${MARKET_SCHEMA_VERSION}\n`);
  for (const t of await tableChecksums(connection)) hash.update(`${t.table}:${t.rows}:${t.sum}\n`);
  return hash.digest('hex').slice(0, 32);
}

/** Recomputes the id and stores it in meta('snapshot_id'). */
export async function refreshSnapshotId(connection: DuckDBConnection): Promise<string> {
  const id = await computeSnapshotId(connection);
  await connection.run(`INSERT OR REPLACE INTO meta VALUES ('snapshot_id', $1)`, [id]);
  return id;
}
