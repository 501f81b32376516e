import { statfsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import {
  E2E_APP_PORT,
  E2E_APP_URL,
  E2E_CONTROL_PORT,
  E2E_CONTROL_URL,
  E2E_OIDC_CLIENT_ID,
  E2E_OIDC_CLIENT_SECRET,
  E2E_OIDC_PORT,
} from './tests/e2e/support/env';

// End-to-end tests: Chromium from Debian (never downloaded), every test with JavaScript on
// (project "js") and off (project "nojs"). Playwright starts the outside world first
// (SMTP + OpenID provider + control API), then the built app on a fresh DATA_DIR.
// `npm run test:e2e` builds first (scripts/ensure-build.mjs --force). E2E_APP_LOG=1 shows the
// app's access log; its stderr (warnings, errors) always shows.

const CI = Boolean(process.env.CI);

// The config is loaded again in every worker: the first load picks the DATA_DIR and the
// workers inherit it through the environment.
process.env.E2E_DATA_DIR ??= path.join('tests', '.tmp', `e2e-${Date.now()}`);

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  // Nothing but this machine (no test depends on the internet): every request to another host
  // goes to a proxy at a closed local port and fails. In the browser rather than as a route in
  // each context: a route sends every request of the page through the test process and turns
  // the HTTP cache off, which made page loads about 40 % slower.
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=127.0.0.1;localhost;[::1]',
];

/**
 * Whether /dev/shm has room for Chromium's shared memory (compositor frames, IPC buffers).
 * Playwright passes --disable-dev-shm-usage by default, for containers whose /dev/shm is 64 MB,
 * which moves that memory into files under /tmp: on a machine whose /tmp is a disk, the system
 * then spends its time writing frames back to it. Where /dev/shm is large, Chromium uses it.
 */
const ROOMY_DEV_SHM = (() => {
  try {
    const fs = statfsSync('/dev/shm');
    return fs.bavail * fs.bsize >= 2 ** 30;
  } catch {
    return false;
  }
})();

const ports = {
  E2E_APP_PORT: String(E2E_APP_PORT),
  E2E_OIDC_PORT: String(E2E_OIDC_PORT),
  E2E_CONTROL_PORT: String(E2E_CONTROL_PORT),
  E2E_OIDC_CLIENT_ID,
  E2E_OIDC_CLIENT_SECRET,
};

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  forbidOnly: CI,
  workers: 2,
  retries: CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: CI ? [['list'], ['line']] : [['list']],
  use: {
    baseURL: E2E_APP_URL,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
      ignoreDefaultArgs: ROOMY_DEV_SHM ? ['--disable-dev-shm-usage'] : [],
    },
    // Recording a trace (DOM snapshots and screencast frames of every action) costs about a fifth
    // of a run's time; on CI, where a failed test is retried once, only the retry records one.
    trace: CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
  },
  projects: [
    { name: 'js', use: { javaScriptEnabled: true } },
    { name: 'nojs', use: { javaScriptEnabled: false } },
  ],
  webServer: [
    {
      command: 'npx tsx tests/support/e2e-servers.ts',
      url: `${E2E_CONTROL_URL}/health`,
      env: ports,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    {
      command: 'node scripts/e2e-start.mjs',
      url: `${E2E_APP_URL}/login`,
      env: { ...ports, E2E_DATA_DIR: process.env.E2E_DATA_DIR },
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: process.env.E2E_APP_LOG ? 'pipe' : 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
  ],
});
