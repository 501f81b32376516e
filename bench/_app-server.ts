import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../tests/support/free-port';

// The built app (scripts/start.mjs on QUARRY_BUILD_DIR or build/) started for a benchmark on a
// free loopback port, with the environment given on top of this process's. Resolves once it
// answers /login.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type BenchApp = { base: string; pid: number; stop: () => Promise<void> };

/** Whether there is a built app to start (`node scripts/ensure-build.mjs` makes one). */
export function builtAppExists(): boolean {
  return existsSync(path.join(path.resolve(root, process.env.QUARRY_BUILD_DIR ?? 'build'), 'server', 'index.js'));
}

export async function startBuiltApp(env: Record<string, string>): Promise<BenchApp> {
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
  // BENCH_NODE_ARGS: node options for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (written when it stops).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const server = spawn(process.execPath, [...nodeArgs, path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', QUARRY_SKIP_DEMO: '1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await exited;
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/login`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600 || server.exitCode !== null) {
      await stop();
      throw new Error('The server did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, pid: server.pid as number, stop };
}
