import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { config } from '../../config.server';
import { MARKET_DDL, MARKET_SCHEMA_VERSION } from './schema';

// How the market DuckDB file is opened.
//
// DuckDB lets one process write a file or many processes read it, never both at once. The app
// keeps a read-only connection open all the time, so writers never touch the published file:
// they work on a private copy and publish it with an atomic rename. The app notices the new
// inode and re-opens. A crash or kill -9 while writing leaves the published file as it was.

export type MarketReader = {
  readonly file: string;
  /** Runs a query and returns rows as plain JSON-like objects (dates as YYYY-MM-DD, BIGINT as string). */
  all<T = Record<string, unknown>>(sql: string, params?: DuckDBValue[] | Record<string, DuckDBValue>): Promise<T[]>;
  /** A fresh connection for work the helpers above cannot do; the caller closes it. */
  connect(): Promise<DuckDBConnection>;
};

/** What a client is told when the market store cannot be read: never the server's file paths. */
export const MARKET_DATA_UNAVAILABLE =
  'Market data unavailable: none is loaded yet or it cannot be read. An administrator can load it with `npm run data -- demo` or an importer.';

/**
 * The market store cannot be used: its file is missing, cannot be opened (not a DuckDB file,
 * damaged, locked) or does not hold the market schema. `message` names the file for the log and
 * the CLI; `reason` and `detail` (for answers) do not.
 */
export class MarketDataMissingError extends Error {
  override name = 'MarketDataMissingError';
  readonly detail = MARKET_DATA_UNAVAILABLE;
  constructor(
    readonly file: string,
    readonly reason: string = 'the file does not exist',
  ) {
    super(
      reason === 'the file does not exist'
        ? `No market data at ${file}. Run \`npm run data -- demo\` or an importer first.`
        : `The market data at ${file} cannot be used: ${reason}.`,
    );
  }
}

/** The tables every market store has (a DuckDB file without them is some other database). */
const REQUIRED_TABLES = ['meta', 'securities', 'prices'];

async function assertMarketSchema(file: string, instance: DuckDBInstance): Promise<void> {
  const connection = await instance.connect();
  try {
    const tables = new Set(
      (await rows<{ table_name: string }>(connection, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'")).map(
        (r) => r.table_name,
      ),
    );
    const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
    if (missing.length > 0) throw new MarketDataMissingError(file, `it is not a market store (no ${missing.join(', ')} table)`);
    const version = await rows<{ value: string }>(connection, "SELECT value FROM meta WHERE key = 'schema_version'");
    // A store without the row predates it; one with another number was written by another version.
    if (version[0] && version[0].value !== String(MARKET_SCHEMA_VERSION)) {
      throw new MarketDataMissingError(file, `its schema version is ${version[0].value}, this app reads ${MARKET_SCHEMA_VERSION}`);
    }
  } finally {
    connection.closeSync();
  }
}

async function applySchema(connection: DuckDBConnection): Promise<void> {
  await connection.run(MARKET_DDL);
  await connection.run(`INSERT OR REPLACE INTO meta VALUES ('schema_version', '${MARKET_SCHEMA_VERSION}')`);
}

async function rows<T>(connection: DuckDBConnection, sql: string, params?: DuckDBValue[] | Record<string, DuckDBValue>): Promise<T[]> {
  const reader = await connection.runAndReadAll(sql, params);
  return reader.getRowObjectsJson() as unknown as T[];
}

/** DuckDB settings of a reader: its buffer memory (`memory_limit`, e.g. '256MB') and worker `threads`. */
export type ReaderSettings = { memoryLimit?: string; threads?: number };

/** Opens a file read-only (no DDL: readers never change the file). DuckDB's defaults unless `settings` say otherwise. */
export async function openMarketReader(file: string, settings: ReaderSettings = {}): Promise<MarketReader & { close(): void }> {
  if (!existsSync(file)) throw new MarketDataMissingError(file);
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file, {
      access_mode: 'READ_ONLY',
      ...(settings.memoryLimit ? { memory_limit: settings.memoryLimit } : {}),
      ...(settings.threads ? { threads: String(settings.threads) } : {}),
    });
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0].replaceAll(file, 'the file');
    throw new MarketDataMissingError(file, `it cannot be opened (${why})`);
  }
  try {
    await assertMarketSchema(file, instance);
  } catch (e) {
    instance.closeSync();
    throw e;
  }
  return readerFor(file, instance);
}

function readerFor(file: string, instance: DuckDBInstance): MarketReader & { close(): void } {
  return {
    file,
    async all<T>(sql: string, params?: DuckDBValue[] | Record<string, DuckDBValue>) {
      // One connection per query: DuckDB connections are cheap, and separate ones let
      // concurrent requests run side by side instead of queueing behind a long scan.
      const connection = await instance.connect();
      try {
        return await rows<T>(connection, sql, params);
      } finally {
        connection.closeSync();
      }
    },
    connect: () => instance.connect(),
    close: () => instance.closeSync(),
  };
}

// ---------------------------------------------------------------------------------------------
// The app's cached reader. Re-opened when the published file is replaced (new inode, size or
// mtime), which is how a finished import or demo run becomes visible without a restart.

type Cached = { file: string; signature: string; reader: MarketReader & { close(): void } };
let cached: Cached | null = null;
let opening: Promise<Cached> | null = null;

function signatureOf(file: string): string | null {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return null;
  }
}

/** Changes whenever the file at `file` is replaced: a key for caches of what was read from it. */
export function storeVersion(file: string): string {
  return `${file}:${signatureOf(file) ?? 'missing'}`;
}

/** The app's read-only view of the market store (config().marketDb unless a file is given). */
export async function marketReader(file: string = config().marketDb): Promise<MarketReader> {
  const signature = signatureOf(file);
  if (signature === null) throw new MarketDataMissingError(file);
  if (cached && cached.file === file && cached.signature === signature) return cached.reader;
  opening ??= (async () => {
    try {
      // MARKET_DB_MEMORY_LIMIT and MARKET_DB_THREADS bound this connection's buffer and threads.
      // Not by default: the page reads keep 50–100 MB in DuckDB's buffer, but a backtest in the
      // app process reads the whole price table sorted through it (price-panel.server.ts).
      const reader = await openMarketReader(file, config().marketReader);
      const previous = cached;
      cached = { file, signature, reader };
      // Queries may still run on the old file; close it a little later (the old inode stays
      // readable after the rename, so nothing breaks meanwhile).
      if (previous) setTimeout(() => previous.reader.close(), 30_000).unref();
      return cached;
    } finally {
      opening = null;
    }
  })();
  return (await opening).reader;
}

/** Tests and the CLI close the cached reader so a file can be deleted or replaced at once. */
export function closeMarketReader(): void {
  cached?.reader.close();
  cached = null;
}

// ---------------------------------------------------------------------------------------------
// Writers.

export type WritableStore = {
  /** The file the writer edits (a private copy unless `inPlace`). */
  readonly workFile: string;
  readonly file: string;
  readonly connection: DuckDBConnection;
  /**
   * A second connection to the work file, made on first use and closed with the store: its
   * statements run alongside the first one's (DuckDB runs one statement at a time per connection).
   */
  sideConnection(): Promise<DuckDBConnection>;
  /**
   * Gives DuckDB its own threads back when the store was opened with `callerThread` (a no-op
   * otherwise): for the work after the appends, the snapshot id's scan of every table and the
   * checkpoint, which it spreads over them (the 6,000 × 25 demo's id: 1.1–1.9 s on one thread,
   * 0.6 s on two).
   */
  endCallerThread(): Promise<void>;
  /**
   * Checkpoints, closes and publishes the work file over `file` (atomic rename).
   * `beforeRename` runs on the closed work file first (e.g. building derived tables), still
   * under the writer lock and still invisible to readers.
   */
  publish(options?: PublishOptions): Promise<void>;
  /** Closes and throws the work away; the published file is untouched. */
  discard(): Promise<void>;
};

export type PublishOptions = {
  beforeRename?: (workFile: string) => Promise<unknown>;
  /** Runs last, right before the rename; if it throws (a cancelled job), nothing is published and the work is thrown away. */
  confirm?: () => Promise<void>;
};

export type OpenWritableOptions = {
  /**
   * Write the file itself instead of a private copy. Only for files no reader has open
   * (tests, a fresh temp file): DuckDB refuses a writer while any reader holds the file.
   */
  inPlace?: boolean;
  /** Start from an empty store instead of a copy of the published one (the demo generator). */
  fresh?: boolean;
  /** Hold DuckDB's memory to BUILD_MEMORY_LIMIT (for writes that only append, as the demo's do). */
  boundMemory?: boolean;
  /** Run DuckDB on the calling thread alone until publish (see onCallerThread; the demo's batches). */
  callerThread?: boolean;
};

/**
 * DuckDB keeps every block a process reads or writes in its buffer pool, up to 80 % of the
 * machine's memory by default: building the 6,000-company × 25-year demo grew it past 2.8 GB.
 * Builds that can (every operator they use spills to disk) run under this bound instead. On that
 * demo the bound cost no time, and every 100 MB less of it was about 100 MB less at the build's
 * peak (1.52 GB at 256 MB, with two snapshot evaluator threads and checkpoints deferred).
 */
export const BUILD_MEMORY_LIMIT = '160MB';

/** Applies BUILD_MEMORY_LIMIT to the connection's DuckDB instance (for the rest of its life). */
export async function boundBuildMemory(connection: DuckDBConnection): Promise<void> {
  await connection.run(`SET memory_limit = '${BUILD_MEMORY_LIMIT}'`);
}

/**
 * Runs the instance's DuckDB work on the threads that call it alone, without a scheduler thread
 * of its own, for the rest of its life or until `RESET threads`.
 *
 * For writers whose statements are many short appends from this process, as the demo generator's
 * are. A DuckDB scheduler thread that has been idle for half a second flushes its allocator, and
 * on glibc that is `malloc_trim(0)` (at most ten times a second): every free page of every arena of
 * the process (the Node heap's arrays, the generator thread's batches) goes back to the system and
 * is faulted in again by the next allocation. Short appends leave that thread idle most of the
 * time. On the 6,000 × 25 demo, measured in pairs on two cores: generating 40–44 s instead of
 * 51–55 s, ~0.4 M fewer page faults and 6–12 s less system time, the same peak memory and file.
 * (The snapshot build gained too, but its peak grew ~170 MB, past the 1.5 GB the build is held to.)
 */
export async function onCallerThread(connection: DuckDBConnection): Promise<void> {
  await connection.run('SET threads = 1');
}

/**
 * Turns off DuckDB's automatic checkpoints for the rest of the instance's life: the caller
 * checkpoints once, when done. Each automatic checkpoint (every 16 MB of log) rewrote the partly
 * filled last row group of every table being appended to and left the earlier copy's blocks
 * free; over a snapshot build and the derived tables that was 81 MB of the 6,000 × 25-year
 * demo's file, at no gain in time or memory (committed rows wait in the log and DuckDB's buffer
 * pool, which spills to disk under BUILD_MEMORY_LIMIT).
 */
export async function deferCheckpoints(connection: DuckDBConnection): Promise<void> {
  await connection.run(`SET checkpoint_threshold = '1TB'`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One writer per file at a time: two concurrent copy-and-rename writers would silently drop
 * one's work. The lock file holds the writer's pid; a lock whose process is gone is stale.
 */
function acquireLock(file: string): () => void {
  const lockFile = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && processAlive(holder)) {
        throw new Error(`Another process (pid ${holder}) is writing ${file}. Wait for it to finish, or remove ${lockFile} if it is gone.`);
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${file}.`);
}

function removeDuckDbFile(file: string): void {
  rmSync(file, { force: true });
  rmSync(`${file}.wal`, { force: true });
}

/** Work files of writers that were killed (their pid is gone) are garbage. */
function removeStaleWorkFiles(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.writing-`;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).replace(/\.wal$/, ''));
    if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid)) rmSync(path.join(dir, name), { force: true });
  }
}

/** Free blocks above this share of a work file are worth a rewrite before publishing. */
const SPARSE_SHARE = 0.15;
/** Smaller files are never rewritten (the copy would cost more than the space). */
const SPARSE_MIN_BYTES = 64 * 2 ** 20;

/**
 * Rewrites a closed work file without its free blocks when they are a large share of it (a build
 * that replaced tables leaves the old blocks free, and DuckDB never shrinks a file): every table
 * is copied into a fresh file (COPY FROM DATABASE), which then replaces the work file.
 */
export async function compactIfSparse(
  workFile: string,
  limits: { share: number; minBytes: number } = { share: SPARSE_SHARE, minBytes: SPARSE_MIN_BYTES },
): Promise<{ before: number; after: number } | null> {
  const instance = await DuckDBInstance.create(workFile);
  const connection = await instance.connect();
  await boundBuildMemory(connection);
  const compact = `${workFile}.compact`;
  try {
    const [size] = await rows<{ total: number; free: number; block: number }>(
      connection,
      'SELECT total_blocks::BIGINT AS total, free_blocks::BIGINT AS free, block_size::BIGINT AS block FROM pragma_database_size()',
    );
    const total = Number(size.total) * Number(size.block);
    if (total < limits.minBytes || Number(size.free) <= limits.share * Number(size.total)) return null;
    const [{ name }] = await rows<{ name: string }>(connection, 'SELECT current_database() AS name');
    removeDuckDbFile(compact);
    await connection.run(`ATTACH '${compact.replaceAll("'", "''")}' AS quarry_compact`);
    await connection.run(`COPY FROM DATABASE "${name.replaceAll('"', '""')}" TO quarry_compact`);
    await connection.run('DETACH quarry_compact');
  } catch (e) {
    removeDuckDbFile(compact);
    throw e;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  if (!existsSync(compact)) return null;
  const before = statSync(workFile).size;
  removeDuckDbFile(workFile);
  renameSync(compact, workFile);
  return { before, after: statSync(workFile).size };
}

/** Opens the store for writing (DDL applied). Publish or discard it when done. */
export async function openWritableStore(file: string, options: OpenWritableOptions = {}): Promise<WritableStore> {
  mkdirSync(path.dirname(file), { recursive: true });
  const release = options.inPlace ? () => {} : acquireLock(file);
  const workFile = options.inPlace ? file : `${file}.writing-${process.pid}`;
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  try {
    if (!options.inPlace) {
      removeStaleWorkFiles(file);
      removeDuckDbFile(workFile);
      if (!options.fresh && existsSync(file)) copyFileSync(file, workFile);
    } else if (options.fresh) {
      removeDuckDbFile(file);
    }
    instance = await DuckDBInstance.create(workFile);
    connection = await instance.connect();
    if (options.boundMemory) await boundBuildMemory(connection);
    if (options.callerThread) await onCallerThread(connection);
    await applySchema(connection);
  } catch (e) {
    release();
    throw e;
  }
  let done = false;
  let side: Promise<DuckDBConnection> | null = null;
  let callerThread = options.callerThread ?? false;
  const endCallerThread = async () => {
    if (!callerThread) return;
    callerThread = false;
    await connection.run('RESET threads');
  };
  const close = async () => {
    (await side?.catch(() => null))?.closeSync();
    connection.closeSync();
    instance.closeSync();
  };
  return {
    workFile,
    file,
    connection,
    sideConnection: () => (side ??= instance.connect()),
    endCallerThread,
    async publish(publishOptions: PublishOptions = {}) {
      if (done) return;
      done = true;
      try {
        // The checkpoint compresses every table's new row groups, which DuckDB spreads over its threads.
        await endCallerThread();
        await connection.run('CHECKPOINT');
        await close();
        // A failing hook does not cost the data: it is published anyway and the error rethrown.
        let hookError: unknown = null;
        if (publishOptions.beforeRename) {
          try {
            await publishOptions.beforeRename(workFile);
          } catch (e) {
            hookError = e;
          }
          // Whoever wrote the file last may have left a WAL; fold it in before the rename.
          if (existsSync(`${workFile}.wal`)) {
            const again = await DuckDBInstance.create(workFile);
            const c = await again.connect();
            await c.run('CHECKPOINT');
            c.closeSync();
            again.closeSync();
          }
        }
        if (!options.inPlace) await compactIfSparse(workFile);
        if (publishOptions.confirm) {
          try {
            await publishOptions.confirm();
          } catch (e) {
            if (!options.inPlace) removeDuckDbFile(workFile);
            throw e;
          }
        }
        if (!options.inPlace) {
          // A WAL left beside the published file would be replayed onto the new one.
          rmSync(`${file}.wal`, { force: true });
          renameSync(workFile, file);
        }
        if (hookError)
          throw new Error(
            `Data published to ${file}, but the step before publishing failed: ${hookError instanceof Error ? hookError.message : String(hookError)}`,
            { cause: hookError },
          );
      } finally {
        release();
      }
    },
    async discard() {
      if (done) return;
      done = true;
      try {
        await close();
        if (!options.inPlace) removeDuckDbFile(workFile);
      } finally {
        release();
      }
    },
  };
}

export async function queryRows<T>(
  connection: DuckDBConnection,
  sql: string,
  params?: DuckDBValue[] | Record<string, DuckDBValue>,
): Promise<T[]> {
  return rows<T>(connection, sql, params);
}
