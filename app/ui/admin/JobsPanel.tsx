import { Form } from '@remix-run/react';
import type { AdminJob, AdminJobGroups, JobActionFormProps, JobIntent } from '~/services/admin/jobs-panel';
import { Timestamp } from '../Timestamp';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

// The jobs section of /admin: queued and running jobs, failed ones and the latest finished,
// with retry and cancel as plain POST forms.

/** Failed or cancelled jobs can run again; unfinished ones can be stopped (once). */
export function jobIntents(job: Pick<AdminJob, 'status' | 'cancel_requested'>): JobIntent[] {
  if (job.status === 'failed' || job.status === 'cancelled') return ['job-retry'];
  if (job.status === 'queued' || (job.status === 'running' && !job.cancel_requested)) return ['job-cancel'];
  return [];
}

export function JobActionForm({ action, intent, jobId, jobLabel }: JobActionFormProps) {
  return (
    <Form method="post" action={action} className="inline-form">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="job_id" value={jobId} />
      <button type="submit" className={`button${intent === 'job-cancel' ? ' button--danger' : ''}`}>
        {intent === 'job-retry' ? 'Retry' : 'Cancel'}
        <span className="visually-hidden"> {jobLabel}</span>
      </button>
    </Form>
  );
}

function statusText(job: AdminJob): string {
  if (job.status === 'running') return `running, ${Math.round(job.progress * 100)} %${job.cancel_requested ? ' (cancel requested)' : ''}`;
  return job.status;
}

function JobTable({ caption, jobs, action, testId }: { caption: string; jobs: AdminJob[]; action: string; testId: string }) {
  return (
    <ScrollRegion label={caption}>
      <table className="data-table" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Status</th>
            <th scope="col">Asked by</th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col">Created</th>
            <th scope="col">Started</th>
            <th scope="col">Finished</th>
            <th scope="col">Message</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => {
            const label = `${job.kind} job ${job.id}`;
            return (
              <tr key={job.id}>
                <th scope="row">
                  {job.kind} <code className="muted">{job.id.slice(0, 8)}</code>
                </th>
                <td>{statusText(job)}</td>
                <td>{job.user_email ?? <span className="muted">system</span>}</td>
                <td className="num">{job.attempts}</td>
                <td>
                  <Timestamp iso={job.created_at} />
                </td>
                <td>
                  <Timestamp iso={job.started_at} />
                </td>
                <td>
                  <Timestamp iso={job.finished_at} />
                </td>
                <td>
                  {job.error ? <span className="field__error">{job.error}</span> : null}
                  {job.error && job.message ? ' ' : null}
                  {job.message}
                </td>
                <td>
                  {jobIntents(job).map((intent) => (
                    <JobActionForm key={intent} action={action} intent={intent} jobId={job.id} jobLabel={label} />
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

export function JobsPanel({ jobs, action }: { jobs: AdminJobGroups; action: string }) {
  const none = jobs.active.length + jobs.failed.length + jobs.recent.length === 0;
  return (
    <section className="card" aria-labelledby="jobs-heading" id="jobs">
      <h2 id="jobs-heading">Jobs</h2>
      {none ? <p>No backtests or imports have been queued yet.</p> : null}
      {jobs.active.length > 0 ? (
        <JobTable caption="Queued and running" jobs={jobs.active} action={action} testId="jobs-active" />
      ) : none ? null : (
        <p>Nothing is queued or running.</p>
      )}
      {jobs.failed.length > 0 ? <JobTable caption="Failed" jobs={jobs.failed} action={action} testId="jobs-failed" /> : null}
      {jobs.recent.length > 0 ? <JobTable caption="Recently finished" jobs={jobs.recent} action={action} testId="jobs-recent" /> : null}
    </section>
  );
}
