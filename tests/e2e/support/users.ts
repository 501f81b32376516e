import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { e2eAppEnv } from './app-state';

export type TestUser = { email: string; password: string; name: string; access: boolean; superuser: boolean };

export type CreateUserOptions = Partial<TestUser>;

/** A fresh address per call, so tests never share accounts. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.test`;
}

type Factory = {
  child: ChildProcessWithoutNullStreams;
  waiting: Array<(answer: { ok: boolean; error?: string }) => void>;
  stderr: string[];
};

// One factory process (tests/support/user-factory.ts) per app database this worker talks to.
const factories = new Map<string, Factory>();

function factoryFor(env: NodeJS.ProcessEnv): Factory {
  const key = `${env.DATA_DIR ?? ''}|${env.DATABASE_URL ?? ''}`;
  const existing = factories.get(key);
  if (existing && existing.child.exitCode === null) return existing;
  const tsx = path.resolve('node_modules', '.bin', 'tsx');
  const child = spawn(tsx, ['tests/support/user-factory.ts'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const factory: Factory = { child, waiting: [], stderr: [] };
  createInterface({ input: child.stdout }).on('line', (line) => {
    const resolve = factory.waiting.shift();
    resolve?.(JSON.parse(line) as { ok: boolean; error?: string });
  });
  child.stderr.on('data', (chunk: Buffer) => factory.stderr.push(chunk.toString()));
  child.on('exit', (code) => {
    for (const resolve of factory.waiting.splice(0)) resolve({ ok: false, error: `factory exited (${code}): ${factory.stderr.join('')}` });
  });
  // The worker must not wait for the factory to exit: it ends when its stdin closes.
  child.unref();
  factories.set(key, factory);
  return factory;
}

/**
 * Creates an account in the running app's database through the same service as
 * `npm run user:create` (see tests/support/user-factory.ts for why it is a long-lived process).
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
  const factory = factoryFor(env);
  const answer = await new Promise<{ ok: boolean; error?: string }>((resolve) => {
    factory.waiting.push(resolve);
    factory.child.stdin.write(JSON.stringify(user) + '\n');
  });
  if (!answer.ok) throw new Error(`creating the account ${user.email} failed: ${answer.error}`);
  return user;
}
