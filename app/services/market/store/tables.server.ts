import type { MarketReader } from './open-store.server';
import { storeVersion } from './open-store.server';

// Which tables the published store has, read once per store version: derived tables (filings,
// valuation panels, the stored market overview) are absent from a store built by an older
// version until its derived data is rebuilt, and readers fall back to the computation they replace.

const cache = new Map<string, Promise<Set<string>>>();

export function storeTables(reader: MarketReader): Promise<Set<string>> {
  const key = storeVersion(reader.file);
  let hit = cache.get(key);
  if (!hit) {
    hit = reader
      .all<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables() WHERE schema_name = 'main'`)
      .then((rows) => new Set(rows.map((r) => r.name)));
    cache.clear();
    cache.set(key, hit);
    hit.catch(() => cache.delete(key));
  }
  return hit;
}

export async function storeHasTable(reader: MarketReader, table: string): Promise<boolean> {
  return (await storeTables(reader)).has(table);
}
