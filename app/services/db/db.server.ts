import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type MigrationProvider,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import { config } from '../config.server';
import { CurrentSchemaPostgresDialect } from './current-schema-introspector';
import { migrations } from './migrations';
import type { Database } from './schema';

export type DB = Kysely<Database>;
/** A transaction open on the app database. */
export type DbTransaction = Transaction<Database>;
/** The app database or a transaction open on it: what a service that may run inside a caller's transaction takes. */
export type DbExecutor = DB | DbTransaction;
export type DbDialect = 'sqlite' | 'postgres';

/**
 * `relaxed` (PostgreSQL only): a second, small pool whose sessions commit without waiting for the
 * disk, for withoutDiskWait. A relaxed write is then one round trip, where a transaction on the
 * main pool with SET LOCAL took four (BEGIN, SET, the write, COMMIT); and no connection of the
 * main pool is ever relaxed.
 */
export type DbHandle = { db: DB; dialect: DbDialect; close: () => Promise<void>; relaxed?: DB };

/** Connections of the relaxed PostgreSQL pool: job bookkeeping and stored results are few and short. */
const RELAXED_POOL_SIZE = 2;

/** FULL: a committed account change survives a power cut (the issue asks for it explicitly). */
const DURABLE_SYNCHRONOUS = 'FULL';

/** Opens the app database: PostgreSQL when a URL is given, else the SQLite file in DATA_DIR. */
export function openDatabase(opts: { databaseUrl?: string; sqliteFile?: string }): DbHandle {
  if (opts.databaseUrl) {
    const pool = survivingIdleErrors(new pg.Pool({ connectionString: opts.databaseUrl, max: 10 }));
    const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
    const relaxedPool = survivingIdleErrors(new pg.Pool({ connectionString: opts.databaseUrl, max: RELAXED_POOL_SIZE }));
    // Set on each new session (queued before its first query), not through the startup options,
    // which a DATABASE_URL carrying its own `options` (a search_path) would replace.
    relaxedPool.on('connect', (client) => {
      client.query('SET synchronous_commit = off').catch(() => undefined);
    });
    const relaxed = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool: relaxedPool }) });
    return {
      db,
      dialect: 'postgres',
      relaxed,
      close: async () => {
        await Promise.all([db.destroy(), relaxed.destroy()]);
      },
    };
  }
  const file = opts.sqliteFile ?? ':memory:';
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${DURABLE_SYNCHRONOUS}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // SQLite's own lower() folds ASCII letters only, PostgreSQL's folds every letter: with this one
  // a case-insensitive search for "émile" finds "Émile" on both. Nothing is indexed on lower().
  sqlite.function('lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: keepingStatements(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * SQLite transactions that take the file's write lock when they begin (BEGIN IMMEDIATE), waiting
 * for it up to the busy timeout. Kysely begins them DEFERRED: such a transaction reads from a
 * snapshot and asks for the lock at its first write, and when another process (a second web
 * process, `npm run worker`, the CLI) has committed since that snapshot, SQLite refuses the write
 * at once (SQLITE_BUSY_SNAPSHOT) without waiting. Begun IMMEDIATE, a transaction that reads, then
 * writes, always commits; the other writers wait for it instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * An idle connection the server ends (a restart, a failover, an administrator) makes its pool emit
 * 'error', and an 'error' event without a listener ends the process. The pool has already dropped
 * that connection and opens another on the next query: logging is all there is to do.
 */
function survivingIdleErrors(pool: pg.Pool): pg.Pool {
  pool.on('error', (e) => console.error(`[db] an idle PostgreSQL connection ended (${e.message}); the next query opens another`));
  return pool;
}

/** Prepared statements kept per connection, by SQL text (least recently used out first). */
const KEPT_STATEMENTS = 500;

/**
 * The SQLite connection as Kysely uses it, with its prepared statements kept: Kysely prepares
 * every query anew, and SQLite compiling the same few hundred statements again and again was a
 * tenth of a request's database time (a backtest asked for and read back runs forty). A
 * statement still being iterated (a streamed query) is busy: another one is prepared for the
 * same SQL meanwhile.
 */
function keepingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      const hit = kept.get(text);
      if (hit && !hit.busy) {
        kept.delete(text);
        kept.set(text, hit);
        return hit;
      }
      const statement = sqlite.prepare(text);
      if (!hit) {
        kept.set(text, statement);
        if (kept.size > KEPT_STATEMENTS) kept.delete(kept.keys().next().value as string);
      }
      return statement;
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(db: DB, dialect: DbDialect = 'sqlite'): Promise<void> {
  // On PostgreSQL the migration tables live in the connection's current schema, the only one the
  // app's introspection sees (current-schema-introspector.ts): named here, Kysely makes and reads
  // them there, never another instance's sharing the database under its own search_path.
  const migrationTableSchema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** The SQLite file of the app database in DATA_DIR (the app, and `npm run db:backup`). */
export function sqliteFilePath(dataDir: string): string {
  return path.join(dataDir, 'quarry.sqlite');
}

let handle: Promise<DbHandle> | undefined;

/** The process-wide app database, migrated on first use. */
export function getDb(): Promise<DB> {
  return dbHandle().then((h) => h.db);
}

function dbHandle(): Promise<DbHandle> {
  handle ??= (async () => {
    const c = config();
    const h = openDatabase({
      databaseUrl: c.databaseUrl,
      sqliteFile: sqliteFilePath(c.dataDir),
    });
    await migrate(h.db, h.dialect);
    return h;
  })();
  return handle;
}

/**
 * Runs `write` with commits that do not wait for the disk, for writes a power cut may undo because
 * they are made again: a job's lease and state (its lease lapses and the job runs again) and what a
 * job computes (the backtest result it stores). Each such commit on SQLite waited ~0.3–1.7 ms for
 * fsync, three of them on the path of every backtest. An application crash still loses nothing
 * (SQLite's WAL at synchronous NORMAL, PostgreSQL's synchronous_commit off), and the next commit
 * that waits for the disk makes them durable with it. Account changes never go through here.
 * `transaction`: run `write` in one transaction.
 */
export async function withoutDiskWait<T>(write: (db: DbExecutor) => Promise<T>, opts: { transaction?: boolean } = {}): Promise<T> {
  const { db, relaxed } = await dbHandle();
  if (relaxed) return opts.transaction ? relaxed.transaction().execute(write) : write(relaxed);
  // The connection is held throughout, so no other query runs at the relaxed setting.
  let restored = true;
  try {
    return await db.connection().execute(async (conn) => {
      await sql`PRAGMA synchronous = NORMAL`.execute(conn);
      try {
        return await (opts.transaction ? conn.transaction().execute(write) : write(conn));
      } finally {
        restored = false;
        await sql.raw(`PRAGMA synchronous = ${DURABLE_SYNCHRONOUS}`).execute(conn);
        restored = true;
      }
    });
  } finally {
    // A connection left relaxed (SQLite refuses the setting inside a transaction a failed rollback
    // left open) must not serve another query: it is closed, and the next one opens a fresh one.
    if (!restored) {
      console.error('[db] the SQLite connection could not wait for the disk again; it is reopened');
      await closeDb().catch(() => undefined);
    }
  }
}

export async function closeDb(): Promise<void> {
  if (!handle) return;
  const h = await handle;
  handle = undefined;
  await h.close();
}
