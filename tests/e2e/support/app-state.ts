import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { E2E_APP_STATE_FILE } from './env';

// What scripts/e2e-start.mjs wrote about the running app: the fixtures that work on the app's
// data from the shell (user:create) need its DATA_DIR and database.

export type E2eAppState = {
  appUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  smtpUrl: string;
  issuer: string;
};

export function e2eAppState(): E2eAppState {
  const file = path.resolve(E2E_APP_STATE_FILE);
  if (!existsSync(file)) {
    throw new Error(`${E2E_APP_STATE_FILE} is missing: the app was not started by scripts/e2e-start.mjs.`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as E2eAppState;
}

/** The environment a shell command needs to act on the e2e app's data. */
export function e2eAppEnv(): NodeJS.ProcessEnv {
  const state = e2eAppState();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: state.dataDir };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  if (state.databaseUrl) env.DATABASE_URL = state.databaseUrl;
  return env;
}
