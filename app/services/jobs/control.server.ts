import { notFound } from '../http/errors';
import { redispatchJob } from './queue.server';
import { requestCancel, requeue, type JobRow } from './store.server';

// Operator and owner controls on a job (admin console, backtest pages). Workers notice a cancel
// at their next step; a retried job is handed to the workers again.

export async function cancelJob(jobId: string): Promise<JobRow> {
  const row = await requestCancel(jobId);
  if (!row) throw notFound('Job not found.');
  return row;
}

export async function retryJob(jobId: string): Promise<JobRow> {
  const row = await requeue(jobId);
  if (!row) throw notFound('Job not found.');
  if (row.status === 'queued') await redispatchJob(jobId);
  return row;
}
