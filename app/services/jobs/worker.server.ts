// Everything a worker process runs: the handlers (and recurring jobs) register themselves on import.
import '../backtest/run-job.server';
import '../billing/reconcile-job.server';
import '../imports/import-job.server';

export { closeJobQueue, startJobWorker, type JobWorker } from './queue.server';
