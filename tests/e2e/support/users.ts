import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { e2eAppEnv } from './app-state';

const run = promisify(execFile);

export type TestUser = { email: string; password: string; name: string; access: boolean; superuser: boolean };

export type CreateUserOptions = Partial<TestUser>;

/** A fresh address per call, so tests never share accounts. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.test`;
}

/**
 * Creates an account in the running app's database with the real CLI
 * (`tsx scripts/user-create.ts --email … --password … --name … [--access] [--superuser]`).
 * `env` points it at another app's database (a spec that starts its own app processes).
 */
export async function createUser(options: CreateUserOptions = {}, env: NodeJS.ProcessEnv = e2eAppEnv()): Promise<TestUser> {
  const user: TestUser = {
    email: options.email ?? uniqueEmail(),
    password: options.password ?? 'correct horse battery staple',
    name: options.name ?? 'Test User',
    access: options.access ?? false,
    superuser: options.superuser ?? false,
  };
  const args = ['scripts/user-create.ts', '--email', user.email, '--password', user.password, '--name', user.name];
  if (user.access) args.push('--access');
  if (user.superuser) args.push('--superuser');
  const tsx = path.resolve('node_modules', '.bin', 'tsx');
  try {
    await run(tsx, args, { env, timeout: 60_000 });
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    throw new Error(`user:create failed for ${user.email}: ${err.stderr || err.stdout || err.message}`);
  }
  return user;
}
