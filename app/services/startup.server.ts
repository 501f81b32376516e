import { config, productionWarnings } from './config.server';
import { getDb } from './db/db.server';
import { startJobWorker } from './jobs/worker.server';

// Process start-up: validate the configuration once (an invalid GTM_ID stops the server, as
// spec §8 asks), warn about production settings left at their defaults, and apply database
// migrations before the first request needs them, then start this process's job worker.
let started = false;

export function startServer(): void {
  if (started) return;
  started = true;
  const c = config();
  for (const warning of productionWarnings(c)) console.warn(`[config] ${warning}`);
  getDb()
    .then(() => {
      // Jobs run in this process too, unless JOBS_IN_APP=0 leaves them to `npm run worker`.
      if (c.jobs.inApp) startJobWorker();
    })
    .catch((error: unknown) => {
      console.error('[startup] the app database could not be opened or migrated', error);
      process.exit(1);
    });
}
