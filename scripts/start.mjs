#!/usr/bin/env node
// `npm start`: serves the built app with remix-serve on an embedded default — SQLite + DuckDB +
// demo data in DATA_DIR, no configuration needed. Secrets are generated on first use.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env };
env.NODE_ENV ??= 'production';
env.PORT ??= '3000';
env.HOST ??= '0.0.0.0';
env.DATA_DIR = path.resolve(root, env.DATA_DIR ?? 'data');
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

const serve = path.join(root, 'node_modules/@remix-run/serve/dist/cli.js');
const buildDir = path.resolve(root, env.QUARRY_BUILD_DIR ?? 'build');
const child = spawn(process.execPath, [serve, path.join(buildDir, 'server/index.js')], { cwd: root, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
