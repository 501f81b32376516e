#!/usr/bin/env node
/* global setInterval */
// `npm start`: serves the built app on an embedded default — SQLite + DuckDB + demo data in
// DATA_DIR, no configuration needed. Secrets are generated on first use. The HTTP server
// (scripts/app-server.mjs) runs in this process: stopping it stops everything, and a process
// manager that kills it leaves nothing behind.
import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { boundHeapGrowth } from './heap-growth.mjs';

boundHeapGrowth();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
env.NODE_ENV ??= 'production';
env.PORT ??= '3000';
env.HOST ??= '0.0.0.0';
env.DATA_DIR = path.resolve(root, env.DATA_DIR ?? 'data');

const MODES = new Set(['production', 'development', 'test']);
if (!MODES.has(env.NODE_ENV)) {
  console.error(`[start] NODE_ENV=${env.NODE_ENV} is not one of production, development, test.`);
  process.exit(1);
}
const port = Number(env.PORT);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`[start] PORT=${env.PORT} is not a port number (0–65535).`);
  process.exit(1);
}
const webProcesses = Number(env.WEB_CONCURRENCY ?? '1');
if (!Number.isInteger(webProcesses) || webProcesses < 1 || webProcesses > 64) {
  console.error(`[start] WEB_CONCURRENCY=${env.WEB_CONCURRENCY} is not a number of web processes (1–64).`);
  process.exit(1);
}

if (cluster.isWorker) {
  // A web process of WEB_CONCURRENCY > 1: the primary did the first-run set-up. It stops when the
  // primary is gone — also when the primary was killed outright (kill -9), which closes the IPC
  // channel: the same graceful stop as SIGTERM (the app's own handlers exit).
  let signalled = false;
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => (signalled = true));
  process.on('disconnect', () => {
    if (!signalled) process.kill(process.pid, 'SIGTERM');
  });
  await serve();
} else {
  await setUp();
  if (webProcesses === 1) await serve();
  else runPrimary(webProcesses);
}

async function setUp() {
  mkdirSync(env.DATA_DIR, { recursive: true });

  // First run: create the demo market data set unless a market database already exists.
  const marketDb = path.resolve(env.MARKET_DB ?? path.join(env.DATA_DIR, 'market.duckdb'));
  if (!existsSync(marketDb) && env.QUARRY_SKIP_DEMO !== '1') {
    console.log(`[start] no market data at ${marketDb}: generating the demo universe (fictional companies)…`);
    const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
    const r = spawnSync(process.execPath, [tsx, path.join(root, 'scripts/data.ts'), 'ensure-demo'], { cwd: root, env, stdio: 'inherit' });
    if (r.status !== 0) {
      console.error('[start] could not generate the demo data; the app starts without market data.');
    }
  }

  // `npm start` runs this script under npm, through a shell (npm → sh → node). A process killed
  // outright (kill -9) cannot pass the signal on: when this process or its shell finds itself
  // handed to another parent, the app stops by itself instead of serving on as an orphan.
  /** The parent process id of `pid` (Linux /proc), or null where that cannot be read. */
  function parentOf(pid) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return null;
    }
  }
  const parent = process.ppid;
  const grandparent = parentOf(parent);
  setInterval(() => {
    // process.ppid is read once at start-up (Node 20): ask /proc for the parent of now.
    const now = parentOf(process.pid);
    const orphaned = (now !== null && now !== parent) || (grandparent !== null && grandparent > 1 && parentOf(parent) !== grandparent);
    if (!orphaned) return;
    console.error('[start] the process that started the app is gone: stopping.');
    process.kill(process.pid, 'SIGTERM');
  }, 1_000).unref();
}

/**
 * WEB_CONCURRENCY=N: N web processes (node:cluster) share the port. The first one opens (and
 * migrates) the app database before the others start, so N processes never migrate one SQLite
 * file at once. A web process that dies after it served is replaced; one that dies before it
 * could listen stops the whole app (a port in use, a database that cannot be opened). SIGTERM or
 * SIGINT to this process is passed on to every web process, and this one exits once they did.
 */
function runPrimary(count) {
  let stopping = false;
  let exitCode = 0;
  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => {
      worker.served = true;
    });
    return worker;
  };
  // Web processes still running (cluster.workers keeps an exited one until its channel closes too).
  const running = () => Object.values(cluster.workers ?? {}).filter((w) => w.process.exitCode === null && w.process.signalCode === null);
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (running().length === 0) process.exit(exitCode);
      return;
    }
    if (!worker.served) {
      console.error(`[start] a web process stopped before it could serve (${signal ?? `status ${code}`}): stopping.`);
      exitCode = 1;
      stop('SIGTERM');
      return;
    }
    console.error(`[start] web process ${worker.process.pid} stopped (${signal ?? `status ${code}`}): starting another.`);
    fork();
  });
  const stop = (signal) => {
    stopping = true;
    const left = running();
    if (left.length === 0) process.exit(exitCode);
    for (const worker of left) worker.process.kill(signal);
    // The web processes give their in-app job 10 s (startup.server.ts); past that, end them, and
    // exit once they are gone (the 'exit' handler above), so no web process outlives this one.
    setTimeout(() => {
      for (const worker of running()) worker.process.kill('SIGKILL');
      setTimeout(() => process.exit(exitCode), 5_000).unref();
    }, 15_000).unref();
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stop(signal));
  fork().once('listening', () => {
    if (stopping) return;
    for (let i = 1; i < count; i++) fork();
    console.log(`[start] ${count} web processes (WEB_CONCURRENCY=${count})`);
  });
}

/** Serves the built app from this process (the only one, or one web process of several). */
async function serve() {
  const { installGlobals } = await import('@remix-run/node');
  const { createAppServer } = await import('./app-server.mjs');
  const buildDir = path.resolve(root, env.QUARRY_BUILD_DIR ?? 'build');
  const build = await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href);
  // Listen once the app database is open and migrated (the first of several web processes
  // migrates alone; the others find it done).
  await build.entry.module.serverReady;
  installGlobals({ nativeFetch: build.future.v3_singleFetch });
  if (env.NODE_ENV === 'development') {
    console.warn(
      '[start] NODE_ENV=development: serving the built app with full error details and cookies without Secure. ' +
        'For live reloading while editing, use `npm run dev`.',
    );
  }

  const app = createAppServer({
    build,
    // Remix shows error details to the client only in development.
    mode: env.NODE_ENV === 'development' ? 'development' : 'production',
    trustProxy: ['1', 'true', 'yes'].includes(env.TRUST_PROXY ?? ''),
    publicDir: path.join(root, 'public'),
  });
  const server = app.listen(port, env.HOST, () => {
    if (cluster.isWorker && cluster.worker.id !== 1) return;
    console.log(`[start] Quarry on http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${server.address().port}`);
  });
  server.on('error', (error) => {
    console.error(`[start] cannot listen on ${env.HOST}:${port}: ${error.message}`);
    process.exit(1);
  });
  // The app's own handlers (app/services/startup.server.ts) stop the job worker and exit.
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close());
}
