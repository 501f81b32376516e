#!/usr/bin/env node
// Starts Quarry for the end-to-end tests (Playwright's second web server), against the SMTP
// server and OpenID provider of tests/support/e2e-servers.ts:
//   1. a fresh DATA_DIR under tests/.tmp/ (E2E_DATA_DIR when Playwright passes one),
//   2. a small demo market (scripts/data.ts demo) when the data CLI exists,
//   3. tests/.tmp/e2e-app-<port>.json telling the fixtures which DATA_DIR / database the app uses,
//   4. `node scripts/start.mjs` (serves the already-built app) with the e2e environment.
// The app uses its own SQLite file unless E2E_DATABASE_URL is set (E2E_REDIS_URL likewise), so
// a CI run with DATABASE_URL exported does not mix e2e users into the shared test database.

/* global fetch, AbortSignal */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// On stderr: Playwright shows a web server's stderr and drops its stdout (the access log).
const log = (message) => process.stderr.write(`[e2e-start] ${message}\n`);

const port = process.env.E2E_APP_PORT ?? '3110';
const appUrl = `http://127.0.0.1:${port}`;
const controlUrl = `http://127.0.0.1:${process.env.E2E_CONTROL_PORT ?? '4012'}`;
const issuer = `http://127.0.0.1:${process.env.E2E_OIDC_PORT ?? '4011'}`;
const dataDir = path.resolve(root, process.env.E2E_DATA_DIR ?? path.join('tests', '.tmp', `e2e-${Date.now()}`));

/** The SMTP server picks a free port; the control API of e2e-servers.ts says which. */
async function smtpUrlFromControl() {
  if (process.env.E2E_SMTP_URL) return process.env.E2E_SMTP_URL;
  const deadline = Date.now() + 90_000;
  let lastError = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${controlUrl}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) {
        const body = await response.json();
        if (typeof body.smtpUrl === 'string') return body.smtpUrl;
      }
      lastError = `HTTP ${response.status}`;
    } catch (e) {
      lastError = e instanceof Error ? e.message : String(e);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The e2e servers' control API at ${controlUrl} did not answer (${lastError}). Is tests/support/e2e-servers.ts running?`);
}

function appEnvironment(smtpUrl) {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.MARKET_DB;
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  if (process.env.E2E_REDIS_URL) env.REDIS_URL = process.env.E2E_REDIS_URL;
  return {
    ...env,
    NODE_ENV: 'production',
    PORT: port,
    HOST: '127.0.0.1',
    APP_URL: appUrl,
    DATA_DIR: dataDir,
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'Quarry e2e <no-reply@quarry.test>',
    SESSION_SECRET: process.env.E2E_SESSION_SECRET ?? 'quarry-e2e-session-secret-not-a-secret',
    OAUTH_PROVIDERS: 'testidp',
    OAUTH_TESTIDP_ISSUER: issuer,
    OAUTH_TESTIDP_CLIENT_ID: process.env.E2E_OIDC_CLIENT_ID ?? 'quarry-e2e',
    OAUTH_TESTIDP_CLIENT_SECRET: process.env.E2E_OIDC_CLIENT_SECRET ?? 'quarry-e2e-client-secret-not-a-secret',
    OAUTH_TESTIDP_NAME: 'Test IdP',
    // The market data is made here (small, fast); start.mjs must not make its own.
    QUARRY_SKIP_DEMO: '1',
  };
}

function generateDemoData(env) {
  if (!existsSync(path.join(root, 'scripts', 'data.ts'))) {
    log('scripts/data.ts is absent: starting without market data.');
    return;
  }
  log('generating a small demo market (120 companies, 6 years)…');
  const started = Date.now();
  const result = spawnSync('npx', ['tsx', 'scripts/data.ts', 'demo', '--companies', '120', '--years', '6'], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    // The sign-in flows do not need market data; pages that do will say it is missing.
    log(`demo data generation failed (exit ${result.status ?? result.signal}); continuing without market data.`);
    return;
  }
  log(`demo data ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/** Data folders of earlier runs pile up in tests/.tmp: drop those older than a day. */
function pruneOldRuns() {
  const tmp = path.join(root, 'tests', '.tmp');
  if (!existsSync(tmp)) return;
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(tmp)) {
    const dir = path.join(tmp, name);
    if (!/^e2e-\d+$/.test(name) || dir === dataDir) continue;
    try {
      if (statSync(dir).mtimeMs < dayAgo) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another run may be removing it too.
    }
  }
}

async function main() {
  pruneOldRuns();
  const startScript = path.join(root, 'scripts', 'start.mjs');
  if (!existsSync(startScript)) throw new Error('scripts/start.mjs is missing: it serves the built app.');
  mkdirSync(dataDir, { recursive: true });
  log(`DATA_DIR ${dataDir}`);
  const smtpUrl = await smtpUrlFromControl();
  const env = appEnvironment(smtpUrl);
  generateDemoData(env);

  const state = {
    appUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? null,
    smtpUrl,
    issuer,
    pid: process.pid,
    startedAt: new Date().toISOString(),
  };
  mkdirSync(path.join(root, 'tests', '.tmp'), { recursive: true });
  writeFileSync(path.join(root, 'tests', '.tmp', `e2e-app-${port}.json`), JSON.stringify(state, null, 2) + '\n');

  log(`starting Quarry on ${appUrl} (SMTP ${smtpUrl}, OpenID provider ${issuer})`);
  const child = spawn(process.execPath, [startScript], { cwd: root, env, stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((e) => {
  console.error(`[e2e-start] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
