#!/usr/bin/env node
// Builds the app when there is no build yet or the sources are newer than it (so that
// `npm install && npm start` works on a fresh clone). `--force` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const buildDir = path.resolve(root, process.env.QUARRY_BUILD_DIR ?? 'build');
const serverBuild = path.join(buildDir, 'server/index.js');
const force = process.argv.includes('--force');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (!/\.test\.[tj]sx?$/.test(entry.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function isStale() {
  if (!existsSync(serverBuild)) return true;
  const built = statSync(serverBuild).mtimeMs;
  const sources = Math.max(
    newestMtime(path.join(root, 'app')),
    newestMtime(path.join(root, 'public')),
    ...['vite.config.ts', 'remix.config.js', 'package.json'].map((f) => statSync(path.join(root, f)).mtimeMs),
  );
  return sources > built;
}

if (force || isStale()) {
  const buildId = `${Date.now().toString(36)}`;
  console.log(`[build] building the app (build ${buildId})…`);
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/@remix-run/dev/dist/cli.js'), 'vite:build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BUILD_ID: buildId, NODE_ENV: 'production' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
