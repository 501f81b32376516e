import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { resetConfigForTests } from '~/services/config.server';
import { closeDb, type DbDialect } from '~/services/db/db.server';
import { createPostgresSchema } from './postgres-schema';

// Runs a suite once on a temporary SQLite file and once on PostgreSQL (when DATABASE_URL is set),
// each in a fresh database: the SQLite file lives in a temp DATA_DIR, PostgreSQL gets its own
// schema (search_path) that is dropped afterwards. getDb() reopens against it.

export type DatabaseTarget = {
  dialect: DbDialect;
  /** The temp DATA_DIR of this run (outbox, generated secrets, SQLite file). */
  dataDir: string;
};

export const POSTGRES_URL = process.env.DATABASE_URL;

type EnvPatch = Record<string, string | undefined>;

function applyEnv(patch: EnvPatch): EnvPatch {
  const previous: EnvPatch = {};
  for (const [k, v] of Object.entries(patch)) {
    previous[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  return previous;
}

/**
 * Points the app at a fresh database of one dialect for the enclosing describe block.
 * `env` adds settings for the run (e.g. SMTP_URL); they are restored afterwards.
 */
export function useDatabase(dialect: DbDialect, name: string, opts: { env?: EnvPatch } = {}): DatabaseTarget {
  const target: DatabaseTarget = { dialect, dataDir: '' };
  let previous: EnvPatch = {};
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    await closeDb();
    target.dataDir = mkdtempSync(path.join(tmpdir(), `quarry-${dialect}-`));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      if (!POSTGRES_URL) throw new Error('DATABASE_URL is not set');
      const created = await createPostgresSchema(POSTGRES_URL, name);
      databaseUrl = created.url;
      drop = created.drop;
    }
    previous = applyEnv({ ...opts.env, DATA_DIR: target.dataDir, DATABASE_URL: databaseUrl });
    resetConfigForTests();
  });
  afterAll(async () => {
    await closeDb();
    applyEnv(previous);
    resetConfigForTests();
    if (drop) await drop();
    rmSync(target.dataDir, { recursive: true, force: true });
  });
  return target;
}

/**
 * Defines the suite `fn` twice: on SQLite, and on PostgreSQL when DATABASE_URL is set (otherwise
 * that half is skipped and says so in its name).
 */
export function forEachDatabase(name: string, fn: (db: DatabaseTarget) => void, opts: { env?: EnvPatch } = {}): void {
  describe(`${name} [sqlite]`, () => {
    fn(useDatabase('sqlite', name, opts));
  });
  if (POSTGRES_URL) {
    describe(`${name} [postgres]`, () => {
      fn(useDatabase('postgres', name, opts));
    });
  } else {
    describe.skip(`${name} [postgres] (skipped: set DATABASE_URL=postgres://... to run it on PostgreSQL)`, () => {
      fn({ dialect: 'postgres', dataDir: '' });
    });
  }
}
