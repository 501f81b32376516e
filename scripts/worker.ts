// `npm run worker`: a job worker process running every kind of job in APP_JOBS (backtests, market
// imports retried from the admin page, billing reconciliation). With REDIS_URL it takes jobs from
// BullMQ, so any number of these can run on other machines (they need the same DATABASE_URL and a
// copy of the market data file, MARKET_DB); without it, it polls the app database's job table.
// SIGINT/SIGTERM let the current job finish for up to 10 s; a job it leaves unfinished is taken
// over by the next worker once its lease lapses (JOB_LEASE_MS), and recomputed from its inputs.
import { config } from '../app/services/config.server';
import { closeDb, getDb } from '../app/services/db/db.server';
import { APP_JOBS } from '../app/services/app-jobs.server';
import { closeJobQueue, startJobWorker } from '../app/services/jobs/queue.server';
import { boundHeapGrowth } from './heap-growth.mjs';

boundHeapGrowth();

const c = config();
await getDb();
const worker = startJobWorker(APP_JOBS);
console.log(`[worker] ${worker.id} started (${c.redisUrl ? 'BullMQ on Redis' : 'polling the app database'}, lease ${c.jobs.leaseMs} ms)`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[worker] ${signal}: stopping`);
  setTimeout(() => process.exit(0), 10_000).unref();
  await worker.stop();
  await closeJobQueue();
  await closeDb();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
