import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config } from '../../config.server';
import { storeVersion } from './open-store.server';

// Typed-array files derived from one version of the market store (the price panel, stored
// snapshot columns), so a backtest reads them with one file read instead of a DuckDB query and a
// conversion per value. They live in DATA_DIR/cache/market/<store file>/<store version>/ — every process
// (app, job workers) builds a missing one the same way and publishes it by an atomic rename, so
// they share the files (and the OS page cache); a process also keeps the last ones it read. A new
// store (an import, a demo run) gets a new folder and the old folders are removed.
//
// File layout: "QCOL1\n", a 4-byte little-endian header length, a JSON header
// { fields: [{ name, type, length, offset }] }, then each array at its offset (8-byte aligned).

export type ColumnType = 'i32' | 'f64';
export type ColumnSet = Record<string, Int32Array | Float64Array>;

const MAGIC = Buffer.from('QCOL1\n');

type Header = { fields: { name: string; type: ColumnType; length: number; offset: number }[] };

function typeOf(a: Int32Array | Float64Array): ColumnType {
  return a instanceof Int32Array ? 'i32' : 'f64';
}

export function encodeColumns(columns: ColumnSet): Buffer {
  const names = Object.keys(columns);
  const fields: Header['fields'] = [];
  let offset = 0;
  for (const name of names) {
    const a = columns[name];
    fields.push({ name, type: typeOf(a), length: a.length, offset });
    offset += Math.ceil(a.byteLength / 8) * 8;
  }
  const header = Buffer.from(JSON.stringify({ fields } satisfies Header));
  const headerEnd = Math.ceil((MAGIC.length + 4 + header.length) / 8) * 8;
  const out = Buffer.alloc(headerEnd + offset);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(header.length, MAGIC.length);
  header.copy(out, MAGIC.length + 4);
  for (let k = 0; k < names.length; k++) {
    const a = columns[names[k]];
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(out, headerEnd + fields[k].offset);
  }
  return out;
}

export function decodeColumns(bytes: Buffer): ColumnSet {
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('Not a column cache file');
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const header = JSON.parse(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength).toString()) as Header;
  const headerEnd = Math.ceil((MAGIC.length + 4 + headerLength) / 8) * 8;
  // Typed arrays need aligned offsets: a pooled Buffer may start anywhere, so copy it then.
  const base = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(bytes);
  const out: ColumnSet = {};
  for (const f of header.fields) {
    const at = base.byteOffset + headerEnd + f.offset;
    out[f.name] = f.type === 'i32' ? new Int32Array(base.buffer, at, f.length) : new Float64Array(base.buffer, at, f.length);
  }
  return out;
}

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
  hit.catch(() => memory.delete(key));
  // A new store version makes the old entries unreachable: drop them with the oldest.
  for (const k of memory.keys()) if (!k.startsWith(folder)) memory.delete(k);
  while (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value as string);
  return hit as Promise<T>;
}

/** Tests: forget what this process keeps. */
export function clearColumnMemory(): void {
  memory.clear();
}
