import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { getUserById } from '~/services/auth/users.server';
import { getDb } from '~/services/db/db.server';
import { forEachDatabase } from '../support/databases';

// `npm run user:create` as an operator runs it: a separate process against the app database.

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');
const SCRIPT = path.resolve('scripts/user-create.ts');

async function cli(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(TSX, [SCRIPT, ...args], { env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

forEachDatabase('user:create CLI', (target) => {
  const env = () => ({ DATA_DIR: target.dataDir, DATABASE_URL: process.env.DATABASE_URL });

  it('creates a superuser with access, and refuses the same e-mail again', async () => {
    const ok = await cli(
      ['--email', 'Root@Example.com', '--password', 'root password', '--name', 'Root User', '--superuser', '--access'],
      env(),
    );
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^Created user root@example\.com \(.+\), superuser, has access\.$/m);
    const row = await (await getDb()).selectFrom('users').select('id').where('email', '=', 'root@example.com').executeTakeFirstOrThrow();
    expect(await getUserById(row.id)).toMatchObject({ is_superuser: true, has_access: true, full_name: 'Root User' });

    const dup = await cli(['--email', 'root@example.com', '--password', 'root password', '--name', 'Again'], env());
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('An account with this e-mail already exists.');
  });
});

describe('user:create CLI input', () => {
  // Input is checked before the database is opened, so one run of these is enough.
  const dirs: string[] = [];
  const env = () => {
    dirs.push(mkdtempSync(path.join(tmpdir(), 'quarry-cli-')));
    return { DATA_DIR: dirs[dirs.length - 1], DATABASE_URL: undefined };
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('explains bad input and exits non-zero', async () => {
    const [bad, missing, unknown] = await Promise.all([
      cli(['--email', 'not-an-email', '--password', 'short', '--name', 'X'], env()),
      cli(['--email', 'a@example.com'], env()),
      cli(['--email', 'a@example.com', '--bogus'], env()),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--email: Enter a valid e-mail address');
    expect(bad.stderr).toContain('--password: Your password must be at least 8 characters long.');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing --password, --name.');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--bogus'");
  });
});
