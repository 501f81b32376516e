import { backtestJob } from './backtest/run-job.server';
import { billingReconcileJob } from './billing/reconcile-job.server';
import { marketImportJob } from './imports/import-job.server';
import { marketRefreshJob } from './imports/refresh-job.server';
import { jobRegistry } from './jobs/registry';

// Every kind of job this app runs, composed in one place for the two worker entry points: the
// app's in-process worker (startup.server.ts) and `npm run worker` (scripts/worker.ts). A new
// kind of job is a `defineJob` in its own domain folder plus one line here.

export const APP_JOBS = jobRegistry([backtestJob, billingReconcileJob, marketImportJob, marketRefreshJob]);
