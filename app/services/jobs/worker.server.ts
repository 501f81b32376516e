// Everything a worker process runs: the handlers register themselves on import.
import '../backtest/run-job.server';

export { closeJobQueue, startJobWorker, type JobWorker } from './queue.server';
