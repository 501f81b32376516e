import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { E2E_CONTROL_URL } from './env';

// More Quarry processes for a spec that needs its own deployment (tests/e2e/many-users.spec.ts):
// the already-built app served by `node scripts/start.mjs`, as scripts/e2e-start.mjs serves the
// main one, with the environment the spec gives it. Never builds: `npm run test:e2e` just did.

export type AppProcess = {
  url: string;
  port: number;
  /** The start script's process id (under WEB_CONCURRENCY > 1, the primary of the web processes). */
  pid: number;
  /** stdout + stderr so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
  /** Sends `signal` to the start script alone, as a process manager does, and waits for it to exit. */
  signal(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** The test SMTP server's URL, from the control API of tests/support/e2e-servers.ts. */
export async function e2eSmtpUrl(): Promise<string> {
  const response = await fetch(`${E2E_CONTROL_URL}/health`);
  const body = (await response.json()) as { smtpUrl?: string };
  if (!response.ok || typeof body.smtpUrl !== 'string')
    throw new Error(`The e2e control API at ${E2E_CONTROL_URL} gave no smtpUrl (HTTP ${response.status}).`);
  return body.smtpUrl;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const running = new Set<ChildProcess>();
// A worker that dies without its afterAll must not leave app servers behind.
process.once('exit', () => {
  for (const child of running) if (child.pid) killGroup(child.pid, 'SIGKILL');
});

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // The whole group we created, in case the start script has a child (the demo generator).
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Starts the built app on 127.0.0.1:`port` and waits until it answers /login. `env` is the
 * whole app environment (DATABASE_URL, REDIS_URL, DATA_DIR, SESSION_SECRET…); PORT, HOST,
 * APP_URL and NODE_ENV=production are set here.
 */
export async function startAppProcess(
  port: number,
  env: Record<string, string>,
  options: { timeoutMs?: number } = {},
): Promise<AppProcess> {
  if (!(await portIsFree(port))) {
    throw new Error(`Port ${port} is already in use: set E2E_EXTRA_APP_PORTS=p1,p2 to two free ports.`);
  }
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, [path.resolve('scripts/start.mjs')], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      QUARRY_BUILD_DIR: process.env.QUARRY_BUILD_DIR ?? 'build',
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      // The market data comes from the spec; start.mjs must not generate a demo universe.
      QUARRY_SKIP_DEMO: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  void exited.then(() => running.delete(child));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(child.pid!, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The app on ${url} exited (${child.exitCode ?? child.signalCode}) before answering:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/login`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The app on ${url} did not answer /login in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const signal = async (name: NodeJS.Signals) => {
    child.kill(name);
    return exited;
  };
  return { url, port, pid: child.pid!, output: () => output, stop, signal };
}
