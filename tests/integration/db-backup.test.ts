import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as meRoute from '~/routes/api.v1.auth.me';
import { APP_JOBS } from '~/services/app-jobs.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import { createUser, findUserRowByEmail, type UserRow } from '~/services/auth/users.server';
import { createBacktest, defaultParams, getBacktest, type BacktestView } from '~/services/backtest/backtests.server';
import { resetConfigForTests } from '~/services/config.server';
import { closeDb, sqliteFilePath } from '~/services/db/db.server';
import { startJobWorker } from '~/services/jobs/queue.server';
import { ruleFromText, ScreenSchema } from '~/services/screener/model';
import { createScreener, listScreeners, type SavedScreener } from '~/services/screener/saved.server';
import { runDbBackup } from '../../scripts/db-backup';
import { callRoute } from '../support/api';
import { testMarket } from '../support/backtest-market';
import { POSTGRES_URL, useDatabase } from '../support/databases';

// `npm run db:backup` against a live database, and the documented restores: the SQLite copy put
// into a fresh DATA_DIR, and (PostgreSQL) the pg_dump / pg_restore commands the script prints.
// Either way the restored database has the same accounts, screeners and backtest results.

const market = testMarket({ companies: 30, years: 3, seed: 5 });
beforeAll(() => market.build(), 120_000);
afterAll(() => market.remove());

const screen = ScreenSchema.parse({ rules: [ruleFromText('price > 1')], ranking: [{ metric: 'ret_3m', direction: 'desc', weight: 1 }] });

type CliResult = { code: number | null; stdout: string; stderr: string };

/** The CLI in-process (fast): its exit code and what it printed. */
async function backupCommand(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  const code = await runDbBackup(args, withoutUnset({ ...process.env, ...env }), {
    out: (l) => lines.stdout.push(l),
    err: (l) => lines.stderr.push(l),
  });
  return { code, stdout: lines.stdout.join('\n'), stderr: lines.stderr.join('\n') };
}

/** The real CLI in its own process, as an operator runs it next to a live app. */
function backupCli(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/db-backup.ts', ...args],
      { env: withoutUnset({ ...process.env, ...env }), timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

function withoutUnset(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
}

async function until(check: () => Promise<boolean>, what: string, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

type Snapshot = { users: UserRow[]; screeners: SavedScreener[]; backtest: BacktestView; queued: BacktestView; token: string };

/** Two accounts, a screener, a finished backtest with its stored result, and a queued one. */
async function seed(tag: string): Promise<Snapshot> {
  const ann = await createUser({ email: `ann-${tag}@example.com`, full_name: 'Ann Backup', password: 'correct horse 1', access: true });
  const bob = await createUser({ email: `bob-${tag}@example.com`, full_name: 'Bob Backup', password: 'correct horse 2', superuser: true });
  const screener = await createScreener(ann.id, { name: 'Momentum to keep', screen });
  const params = { ...(await defaultParams()), rebalance: 'quarterly', topN: 5 };
  const worker = startJobWorker(APP_JOBS);
  let done: BacktestView;
  try {
    const created = await createBacktest(ann.id, { screenerId: screener.id, params });
    await until(async () => (await getBacktest(ann.id, created.id)).status === 'succeeded', 'the backtest to finish');
    done = await getBacktest(ann.id, created.id, { withResult: true });
  } finally {
    await worker.stop();
  }
  const queued = await createBacktest(bob.id, { screen, params, name: 'Still waiting' });
  // The view createBacktest builds from what it wrote is the one read back.
  expect(queued).toEqual(await getBacktest(bob.id, queued.id));
  return {
    users: [(await findUserRowByEmail(ann.email))!, (await findUserRowByEmail(bob.email))!],
    screeners: await listScreeners(ann.id),
    backtest: done,
    queued,
    token: (await issueUserToken(ann.id)).access_token,
  };
}

/** What the app reads back, through its services and its API, from whatever database it is pointed at now. */
async function expectSameData(before: Snapshot) {
  const [ann, bob] = before.users;
  expect(await findUserRowByEmail(ann.email)).toEqual(ann);
  expect(await findUserRowByEmail(bob.email)).toEqual(bob);
  expect(await listScreeners(ann.id)).toEqual(before.screeners);
  const restored = await getBacktest(ann.id, before.backtest.id, { withResult: true });
  expect(restored.status).toBe('succeeded');
  expect(restored.result).not.toBeNull();
  expect(JSON.stringify(restored)).toBe(JSON.stringify(before.backtest));
  expect((await getBacktest(bob.id, before.queued.id)).status).toBe('queued');
  // A token issued before the backup still signs the API in (tokens are stored hashed).
  const me = await callRoute(meRoute, { path: '/api/v1/auth/me', token: before.token });
  expect(me.status).toBe(200);
  expect((me.body as { email: string }).email).toBe(ann.email);
}

describe('db:backup [sqlite]: online copy of a live database, restored into a fresh DATA_DIR', () => {
  const db = useDatabase('sqlite', 'db-backup', { env: { MARKET_DB: market.file, REDIS_URL: undefined } });
  let scratch = '';
  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'quarry-backup-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('copies while other connections write, and the copy restores to the same accounts, screeners and backtests', async () => {
    const before = await seed('sqlite');
    const live = sqliteFilePath(db.dataDir);
    const out = path.join(scratch, 'quarry-backup.sqlite');

    // A write in progress on another connection: begun, not committed while the backup runs.
    const writer = new SQLite(live);
    writer.pragma('busy_timeout = 5000');
    writer.exec('BEGIN IMMEDIATE');
    writer
      .prepare(
        `INSERT INTO users (id, email, full_name, password_hash, profile_picture, profile_finished, access_override, is_superuser, disabled, created_at, updated_at)
         VALUES ('uncommitted', 'uncommitted@example.com', 'Not Yet', NULL, NULL, 0, NULL, 0, 0, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')`,
      )
      .run();

    const cli = await backupCli(['--out', out], { DATA_DIR: db.dataDir, DATABASE_URL: undefined });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`Backed up ${live} to ${out}`);
    writer.exec('COMMIT');
    writer.close();
    expect(await findUserRowByEmail('uncommitted@example.com')).toBeDefined();

    const copy = new SQLite(out, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.pragma('foreign_key_check')).toEqual([]);
    expect(copy.prepare(`SELECT count(*) AS n FROM users WHERE email = 'uncommitted@example.com'`).get()).toEqual({ n: 0 });
    copy.close();
    expect(readdirNoPartials(scratch)).toEqual(['quarry-backup.sqlite']);

    // The documented restore: stop the app, put the copy in place as DATA_DIR/quarry.sqlite, start.
    await closeDb();
    const fresh = mkdtempSync(path.join(tmpdir(), 'quarry-restored-'));
    try {
      copyFileSync(out, sqliteFilePath(fresh));
      process.env.DATA_DIR = fresh;
      resetConfigForTests();
      await expectSameData(before);
      expect(await findUserRowByEmail('uncommitted@example.com')).toBeUndefined();
    } finally {
      await closeDb();
      process.env.DATA_DIR = db.dataDir;
      resetConfigForTests();
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses bad invocations with a clear message, never overwriting a file', async () => {
    const env = { DATA_DIR: db.dataDir, DATABASE_URL: undefined };
    const scratch = mkdtempSync(path.join(tmpdir(), 'quarry-refusals-'));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const noOut = await backupCommand([], env);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('Missing --out FILE.');
    const unknown = await backupCommand(['--out', path.join(scratch, 'x.sqlite'), '--compress'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--compress'");
    expect(unknown.stderr).toContain('Usage: npm run db:backup -- --out FILE');

    const existing = path.join(scratch, 'precious.sqlite');
    writeFileSync(existing, 'an older backup');
    const clobber = await backupCommand(['--out', existing], env);
    expect(clobber.code).toBe(1);
    expect(clobber.stderr).toContain('already exists');
    expect(readFileSync(existing, 'utf8')).toBe('an older backup');

    const intoLive = await backupCommand(['--out', sqliteFilePath(db.dataDir)], env);
    expect(intoLive.code).toBe(1);
    expect(intoLive.stderr).toContain('is the live database itself');

    const noFolder = await backupCommand(['--out', path.join(scratch, 'missing', 'b.sqlite')], env);
    expect(noFolder.code).toBe(1);
    expect(noFolder.stderr).toContain('does not exist');

    const empty = mkdtempSync(path.join(tmpdir(), 'quarry-empty-'));
    try {
      const nothing = await backupCommand(['--out', path.join(scratch, 'n.sqlite')], { DATA_DIR: empty, DATABASE_URL: undefined });
      expect(nothing.code).toBe(1);
      expect(nothing.stderr).toContain('There is no app database at');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }

    const postgres = await backupCommand(['--out', path.join(scratch, 'pg.dump')], {
      DATA_DIR: db.dataDir,
      DATABASE_URL: 'postgres://quarry:hunter2@db.internal:5432/quarry?options=-c%20search_path%3Dtenant_a',
    });
    expect(postgres.code).toBe(1);
    expect(postgres.stderr).toContain('Not backed up: DATABASE_URL points at PostgreSQL');
    expect(postgres.stderr).toContain(
      `pg_dump --format=custom --no-owner --no-privileges --schema=tenant_a --file=${path.join(scratch, 'pg.dump')} --dbname=postgres://quarry@db.internal:5432/quarry`,
    );
    expect(postgres.stderr).not.toContain('hunter2');
    expect(postgres.stderr).toContain('PGPASSWORD');
    expect(existsSync(path.join(scratch, 'pg.dump'))).toBe(false);

    const badUrl = await backupCommand(['--out', path.join(scratch, 'pg.dump')], { DATA_DIR: db.dataDir, DATABASE_URL: 'mysql://x@y/z' });
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain('DATABASE_URL must start with postgres://');
    expect(readdirNoPartials(scratch)).toEqual(['precious.sqlite']);
  }, 60_000);
});

function readdirNoPartials(dir: string): string[] {
  const names = readdirSync(dir);
  expect(names.filter((n) => n.includes('.partial-'))).toEqual([]);
  return names;
}

const pgTools = ['pg_dump', 'pg_restore'].every((tool) => spawnSync(tool, ['--version']).status === 0);
const pgSkip = !POSTGRES_URL
  ? ' (skipped: set DATABASE_URL=postgres://... to run it)'
  : !pgTools
    ? ' (skipped: pg_dump and pg_restore are not on PATH; apt-get install postgresql-client)'
    : '';

describe.skipIf(pgSkip !== '')(`db:backup [postgres]: the printed pg_dump and pg_restore commands work${pgSkip}`, () => {
  useDatabase('postgres', 'db_backup', { env: { MARKET_DB: market.file, REDIS_URL: undefined } });
  let scratch = '';
  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'quarry-pgdump-'));
  });
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  let moved: string | undefined;
  afterAll(async () => {
    if (moved) await admin(`DROP SCHEMA IF EXISTS "${moved}" CASCADE`);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('dumps one schema with the printed command, and the printed restore brings the same data back', async () => {
    const before = await seed('postgres');
    const schemaUrl = process.env.DATABASE_URL!;
    const schema = new URL(schemaUrl).searchParams.get('options')!.replace('-c search_path=', '');
    const out = path.join(scratch, 'quarry.dump');

    const cli = await backupCommand(['--out', out], { DATABASE_URL: schemaUrl });
    expect(cli.code).toBe(1);
    const command = (tool: string) => {
      const line = cli.stderr.split('\n').find((l) => l.trim().startsWith(`${tool} `));
      if (!line) throw new Error(`no ${tool} command in:\n${cli.stderr}`);
      return line.trim();
    };
    expect(command('pg_dump')).toContain(`--schema=${schema}`);
    const run = (cmd: string) => spawnSync('sh', ['-c', cmd], { encoding: 'utf8', timeout: 60_000 });

    const dumped = run(command('pg_dump'));
    expect(dumped.stderr).toBe('');
    expect(dumped.status).toBe(0);
    expect(existsSync(out)).toBe(true);

    // Disaster: the schema is gone (kept aside under another name to clean up afterwards).
    await closeDb();
    moved = `${schema}_lost`;
    await admin(`ALTER SCHEMA "${schema}" RENAME TO "${moved}"`);

    const restored = run(command('pg_restore'));
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
    resetConfigForTests();
    await expectSameData(before);
  }, 120_000);
});
