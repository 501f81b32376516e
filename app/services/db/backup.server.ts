import { existsSync, linkSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

// Backups of the app database (`npm run db:backup`). SQLite: an online copy through SQLite's
// backup API, safe while the app runs. PostgreSQL: pg_dump is the tool; we only say how to call
// it, because running a dump of someone else's server with guessed options is worse than none.

export class BackupError extends Error {
  override name = 'BackupError';
}

export type SqliteBackup = { source: string; out: string; pages: number; bytes: number; ms: number };

/** Copies every page in one step: one read snapshot, so writers (WAL) never force a restart. */
const ALL_PAGES = 0x7fffffff;

export async function backupSqlite(source: string, out: string): Promise<SqliteBackup> {
  const started = Date.now();
  const target = path.resolve(out);
  if (!existsSync(source)) throw new BackupError(`There is no app database at ${source}: nothing to back up.`);
  if (path.resolve(source) === target) throw new BackupError('--out is the live database itself: choose another file.');
  if (existsSync(target)) throw new BackupError(`${target} already exists: choose a new file (a backup never overwrites one).`);
  if (!existsSync(path.dirname(target))) throw new BackupError(`The folder ${path.dirname(target)} does not exist.`);

  // Written under a private name and linked into place only once verified, so a crash or a full
  // disk never leaves a half copy that looks like a backup.
  const partial = `${target}.partial-${process.pid}`;
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const progress = await db.backup(partial, { progress: () => ALL_PAGES });
    verifyCopy(partial);
    try {
      linkSync(partial, target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupError(`${target} appeared while backing up: not overwritten.`);
      throw e;
    }
    return { source, out: target, pages: progress.totalPages, bytes: statSync(target).size, ms: Date.now() - started };
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${partial}${suffix}`, { force: true });
  }
}

function verifyCopy(file: string): void {
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    const result = copy.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`The copy failed SQLite's integrity check: ${String(result)}`);
    // Back to a plain rollback journal, so the copy is one self-contained file to move around.
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

export type PostgresBackupCommands = { dump: string; restore: string; schema?: string; passwordHidden: boolean };

/** Quotes one word for a POSIX shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The schema a connection string selects with `options=-c search_path=…` (how tests and shared servers isolate). */
function searchPathSchema(url: URL): string | undefined {
  const options = url.searchParams.get('options');
  const m = options ? /(?:^|\s)-c\s*search_path=([A-Za-z_][A-Za-z0-9_$]*)/.exec(options) : null;
  return m?.[1];
}

/**
 * The pg_dump / pg_restore commands for DATABASE_URL. The password is left out (pg_dump reads
 * PGPASSWORD or ~/.pgpass) so that the command can be printed to a terminal or a cron log.
 */
export function postgresBackupCommands(databaseUrl: string, outFile: string): PostgresBackupCommands {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new BackupError('DATABASE_URL is not a valid postgres:// URL.');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new BackupError(`DATABASE_URL must start with postgres:// or postgresql:// (it starts with ${url.protocol}//).`);
  }
  const schema = searchPathSchema(url);
  const passwordHidden = url.password !== '';
  const clean = new URL(url.toString());
  clean.password = '';
  // libpq reads `options` with percent-decoding only; the schema goes to --schema instead.
  clean.searchParams.delete('options');
  const connection = clean.toString();
  const schemaArgs = schema ? [`--schema=${schema}`] : [];
  const dump = [
    'pg_dump',
    '--format=custom',
    '--no-owner',
    '--no-privileges',
    ...schemaArgs,
    `--file=${path.resolve(outFile)}`,
    `--dbname=${connection}`,
  ];
  const restore = ['pg_restore', '--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${connection}`, path.resolve(outFile)];
  return { dump: dump.map(shellQuote).join(' '), restore: restore.map(shellQuote).join(' '), schema, passwordHidden };
}
