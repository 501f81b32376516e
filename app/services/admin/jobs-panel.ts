import type { JobStatus } from '../db/schema';

// The contract between the admin page's jobs section and the job system: the rows it shows and
// the forms it posts. Types only, so the job system can grow behind it without the page changing.

export type AdminJob = {
  id: string;
  kind: string;
  status: JobStatus;
  /** 0…1 */
  progress: number;
  message: string | null;
  attempts: number;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Who asked for it; null for system jobs (imports) and accounts deleted since. */
  user_email: string | null;
  /** A running job was asked to stop and has not yet. */
  cancel_requested: boolean;
};

export type JobIntent = 'job-retry' | 'job-cancel';

/** A retry or cancel form: POST `action` with `intent` and `job_id`. */
export type JobActionFormProps = {
  action: string;
  intent: JobIntent;
  jobId: string;
  /** The job's kind and id, for the button's accessible name. */
  jobLabel: string;
};

export type AdminJobGroups = {
  /** Queued and running jobs, oldest first (the order the queue takes them). */
  active: AdminJob[];
  failed: AdminJob[];
  /** Finished jobs that did not fail (succeeded, cancelled), newest first. */
  recent: AdminJob[];
};
