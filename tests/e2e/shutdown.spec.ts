import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testMarket, type TestMarket } from '../support/backtest-market';
import { startAppProcess } from './support/app-process';
import { E2E_APP_PORT, E2E_EXTRA_APP_PORTS } from './support/env';
import { expect, test } from './support/fixtures';

// `npm start` under a process manager: SIGTERM (what systemd, Docker and Kubernetes send) to the
// start script ends the app, its in-app job worker and its database connections, and the process
// exits by itself with status 0 instead of waiting to be killed. The next start on the same
// DATA_DIR opens the same SQLite file. About the server, not the browser: project js only.

/** Waits until the app at `url` serves its sign-in page. */
async function answersLogin(url: string): Promise<void> {
  await expect
    .poll(
      () =>
        fetch(`${url}/login`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 60_000 },
    )
    .toBe(200);
}

/** The processes started by `pid` (Linux /proc): WEB_CONCURRENCY's web processes under the start script. */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** Whether `pid` still runs (a zombie left unreaped by the container's init does not). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

test.describe('stopping the app', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'runs in the js project only: it tests the server, once is enough');

  let market: TestMarket | undefined;
  let dataDir = '';
  test.beforeAll(async () => {
    market = testMarket({ companies: 10, years: 2, seed: 5 });
    await market.build();
    dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-shutdown-'));
  });
  test.afterAll(() => {
    market?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The app's own settings for these tests (a small market, a data dir of their own). */
  const appEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
    DATA_DIR: dataDir,
    MARKET_DB: market!.file,
    SESSION_SECRET: 'shutdown-spec-not-a-secret',
    ...extra,
  });
  /** The whole environment of `scripts/start.mjs` started by hand: nothing else inherited. */
  const startEnv = (port: number, nodeEnv: 'production' | 'development'): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    QUARRY_BUILD_DIR: process.env.QUARRY_BUILD_DIR ?? 'build',
    ...appEnv(),
    NODE_ENV: nodeEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    QUARRY_SKIP_DEMO: '1',
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} ends the app and its job worker; it exits with status 0`, async () => {
      test.setTimeout(90_000);
      // The default embedded setup (SQLite, the in-app worker polling the jobs table), plus Redis
      // rate limits and BullMQ when REDIS_URL is set: each holds the process open if left running.
      const env = appEnv();
      if (process.env.REDIS_URL)
        Object.assign(env, { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `quarry-shutdown-${Date.now().toString(36)}` });
      const app = await startAppProcess(E2E_EXTRA_APP_PORTS[2], env);
      try {
        // A failed sign-in touches the database and the rate limiter before the signal.
        const answer = await fetch(`${app.url}/api/v1/auth/signin`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }),
        });
        expect(answer.status).toBe(400);

        const exited = app.signal(signal);
        const gaveUp = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 30_000).unref());
        const outcome = await Promise.race([exited, gaveUp]);
        expect(outcome, `the app did not exit after ${signal}:\n${app.output()}`).toEqual({ code: 0, signal: null });
        expect(app.output()).toContain(`[startup] ${signal}: stopping the job worker and closing connections`);
        await expect(fetch(`${app.url}/login`)).rejects.toThrow();
      } finally {
        await app.stop();
      }
    });
  }

  test('kill -9 of the process that ran the start script (npm, through a shell) leaves no server behind', async () => {
    test.setTimeout(90_000);
    const port = E2E_EXTRA_APP_PORTS[2];
    const url = `http://127.0.0.1:${port}`;
    // npm runs `sh -c "node scripts/start.mjs"`: a stand-in for npm that runs the same through a shell.
    const launcher = spawn(
      process.execPath,
      [
        '-e',
        "require('node:child_process').spawn('sh', ['-c', 'node scripts/start.mjs'], { stdio: 'inherit' }); setInterval(() => {}, 1000);",
      ],
      {
        env: startEnv(port, 'production'),
        stdio: 'ignore',
      },
    );
    try {
      await answersLogin(url);
      launcher.kill('SIGKILL');
      // The shell and the app notice they lost their parent and stop: the port is free again.
      await expect
        .poll(
          () =>
            fetch(`${url}/login`).then(
              () => 'answering',
              () => 'gone',
            ),
          { timeout: 20_000 },
        )
        .toBe('gone');
    } finally {
      launcher.kill('SIGKILL');
    }
  });

  test('WEB_CONCURRENCY=2 serves from two web processes; SIGTERM ends both and exits with status 0', async () => {
    test.setTimeout(90_000);
    const env = appEnv({ WEB_CONCURRENCY: '2' });
    const app = await startAppProcess(E2E_EXTRA_APP_PORTS[2], env);
    try {
      await expect.poll(() => childrenOf(app.pid).length, { timeout: 60_000 }).toBe(2);
      const workers = childrenOf(app.pid);
      for (let i = 0; i < 6; i++) expect((await fetch(`${app.url}/login`)).status).toBe(200);
      expect(app.output()).toContain('[start] 2 web processes (WEB_CONCURRENCY=2)');

      const exited = app.signal('SIGTERM');
      const gaveUp = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 30_000).unref());
      expect(await Promise.race([exited, gaveUp]), `the app did not exit:\n${app.output()}`).toEqual({ code: 0, signal: null });
      expect(workers.filter(isRunning)).toEqual([]);
      await expect(fetch(`${app.url}/login`)).rejects.toThrow();
    } finally {
      await app.stop();
    }
  });

  test('WEB_CONCURRENCY=2: kill -9 of the primary leaves no web process behind', async () => {
    test.setTimeout(90_000);
    const env = appEnv({ WEB_CONCURRENCY: '2' });
    const app = await startAppProcess(E2E_EXTRA_APP_PORTS[2], env);
    try {
      await expect.poll(() => childrenOf(app.pid).length, { timeout: 60_000 }).toBe(2);
      const workers = childrenOf(app.pid);
      expect((await fetch(`${app.url}/login`)).status).toBe(200);
      process.kill(app.pid, 'SIGKILL');
      // Each web process sees its channel to the primary close and stops by itself.
      await expect.poll(() => workers.filter(isRunning), { timeout: 30_000 }).toEqual([]);
      await expect(fetch(`${app.url}/login`)).rejects.toThrow();
    } finally {
      await app.stop();
    }
  });

  test('NODE_ENV=development serves the built app (no dev server needed) and says so', async () => {
    test.setTimeout(90_000);
    // A port of its own: the server of the kill -9 test above may still be letting go of its port.
    const port = E2E_APP_PORT + 8;
    const url = `http://127.0.0.1:${port}`;
    let output = '';
    const app = spawn(process.execPath, ['scripts/start.mjs'], {
      env: startEnv(port, 'development'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    app.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    app.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await answersLogin(url);
      expect(output).toContain('[start] NODE_ENV=development: serving the built app');
      expect(output).not.toContain('Dev server origin not set');
      const refused = await fetch(`${url}/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(415);
    } finally {
      app.kill('SIGTERM');
    }
  });
});
