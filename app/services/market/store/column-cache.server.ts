import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config } from '../../config.server';
import { decodeColumns, encodeColumns, type ColumnSet } from './column-file';
import { storeVersion } from './open-store.server';

// Typed-array files derived from one version of the market store (the price panel, stored
// snapshot columns), so a backtest reads them with one file read instead of a DuckDB query and a
// conversion per value. They live in DATA_DIR/cache/market/<store file>/<store version>/ — every process
// (app, job workers) builds a missing one the same way and publishes it by an atomic rename, so
// they share the files (and the OS page cache); a process also keeps the last ones it read. A new
// store (an import, a demo run) gets a new folder and the old folders are removed.
// File layout: column-file.ts.

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);

/** The cache folder of the store file's current version (one folder of versions per store file). */
export function cacheFolder(marketFile: string): string {
  return path.join(config().dataDir, 'cache', 'market', hash(path.resolve(marketFile)), hash(storeVersion(marketFile)));
}

function removeOtherVersions(folder: string): void {
  const parent = path.dirname(folder);
  for (const name of readdirSync(parent))
    if (name !== path.basename(folder)) rmSync(path.join(parent, name), { recursive: true, force: true });
}

const memory = new Map<string, Promise<ColumnSet>>();
/** Bytes of the column sets read so far, by key (those still in `memory`). */
const sizes = new Map<string, number>();

/** Bytes of the column sets this process keeps: a warm backtest process is at least this large. */
export function cachedColumnBytes(): number {
  let n = 0;
  for (const [key, bytes] of sizes) if (memory.has(key)) n += bytes;
  return n;
}
/** Whether the named column set of the store's current version has its cache file (a reader then reads it in one go). */
export function hasCachedFile(marketFile: string, name: string): boolean {
  return existsSync(path.join(cacheFolder(marketFile), `${name}.col`));
}

/** Lets go of every column set this process keeps in memory (their files stay). */
export function forgetCachedColumns(): void {
  memory.clear();
  sizes.clear();
}

/** Column sets a process keeps (a price panel and a few snapshot metrics). */
const MEMORY_ENTRIES = 16;

/**
 * The named column set of the store's current version: from this process's memory, else the
 * cache file, else built by `build` and written for the next reader. Treat it as read-only.
 */
export function cachedColumns<T extends ColumnSet>(marketFile: string, name: string, build: () => Promise<T>): Promise<T> {
  if (!/^[a-z0-9_.-]+$/.test(name)) throw new Error(`Bad cache name ${name}`);
  const folder = cacheFolder(marketFile);
  const key = path.join(folder, `${name}.col`);
  let hit = memory.get(key);
  if (hit) {
    memory.delete(key);
    memory.set(key, hit);
    return hit as Promise<T>;
  }
  hit = (async () => {
    try {
      return decodeColumns(readFileSync(key));
    } catch {
      const built = await build();
      try {
        mkdirSync(folder, { recursive: true });
        const tmp = `${key}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
        writeFileSync(tmp, encodeColumns(built));
        renameSync(tmp, key);
        removeOtherVersions(folder);
      } catch (e) {
        // A read-only DATA_DIR only costs speed: the set is kept in memory all the same.
        console.warn(`[cache] could not write ${key}: ${e instanceof Error ? e.message : String(e)}`);
      }
      return built;
    }
  })();
  memory.set(key, hit);
  hit.then(
    (set) => {
      const buffers = new Set(Object.values(set).map((col) => col.buffer));
      sizes.set(
        key,
        [...buffers].reduce((n, b) => n + b.byteLength, 0),
      );
    },
    () => memory.delete(key),
  );
  // A new store version makes the old entries unreachable: drop them with the oldest.
  for (const k of memory.keys()) if (!k.startsWith(folder)) memory.delete(k);
  while (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value as string);
  for (const k of sizes.keys()) if (!memory.has(k)) sizes.delete(k);
  return hit as Promise<T>;
}
