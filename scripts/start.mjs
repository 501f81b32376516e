#!/usr/bin/env node
/* global setInterval */
// `npm start`: serves the built app on an embedded default — SQLite + DuckDB + demo data in
// DATA_DIR, no configuration needed. Secrets are generated on first use. The HTTP server
// (scripts/app-server.mjs) runs in this process: stopping it stops everything, and a process
// manager that kills it leaves nothing behind.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

const { installGlobals } = await import('@remix-run/node');
const { createAppServer } = await import('./app-server.mjs');
const buildDir = path.resolve(root, env.QUARRY_BUILD_DIR ?? 'build');
const build = await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href);
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
  console.log(`[start] Quarry on http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${server.address().port}`);
});
server.on('error', (error) => {
  console.error(`[start] cannot listen on ${env.HOST}:${port}: ${error.message}`);
  process.exit(1);
});
// The app's own handlers (app/services/startup.server.ts) stop the job worker and exit.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close());
