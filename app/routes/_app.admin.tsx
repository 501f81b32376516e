import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { assertActiveSuperuser } from '~/services/admin/audit.server';
import { cancelJobAsAdmin, retryJobAsAdmin } from '~/services/admin/jobs.server';
import { adminOverview, adminOverviewWithoutUsers } from '~/services/admin/page.server';
import { AdminQuerySchema, adminHref, DEFAULT_ADMIN_QUERY } from '~/services/admin/user-query';
import { requireUser } from '~/services/auth/guard.server';
import { errorModalRedirect, redirectWithModal } from '~/services/auth/session.server';
import { intent, intentAction, NO_VALUES } from '~/services/http/intent-action.server';
import { enqueueRefreshNow } from '~/services/imports/refresh-job.server';
import { AuditLogPanel } from '~/ui/admin/AuditLogPanel';
import { DataStatusPanel } from '~/ui/admin/DataStatusPanel';
import { JobsPanel } from '~/ui/admin/JobsPanel';
import { MarketSourcesPanel } from '~/ui/admin/MarketSourcesPanel';
import { UsersPanel } from '~/ui/admin/UsersPanel';
import { ActionErrors } from '~/ui/forms/ActionErrors';

// /admin (superusers only; the guard sends everyone else to /): users, jobs, market
// data and the audit log. Each user has a page of its own (/admin/users/$id) for the changes.

export const meta: MetaFunction = () => [{ title: 'Admin · Quarry' }];
export const handle = { pageName: 'admin' };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const url = new URL(request.url);
  const submission = parseWithZod(url.searchParams, { schema: AdminQuerySchema });
  if (submission.status !== 'success') {
    // The list cannot be drawn from this address; the form says why and the rest still shows.
    const rest = await adminOverviewWithoutUsers(user.id, 1);
    return data({ email: user.email, query: DEFAULT_ADMIN_QUERY, search: submission.reply(), ...rest }, { status: 400 });
  }
  const overview = await adminOverview(user.id, submission.value);
  return { email: user.email, query: submission.value, search: null, ...overview };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  const job = z.object({ job_id: z.string().trim().min(1).max(120) });
  return intentAction(request, {
    cancelTo: '/admin#jobs',
    refusalModal: errorModalRedirect(session, '/admin#jobs', 'Could not change the job'),
    intents: {
      'market-refresh': intent(
        NO_VALUES,
        async () => {
          await assertActiveSuperuser(user.id);
          await enqueueRefreshNow(user.id);
          return redirectWithModal(session, '/admin#jobs', {
            kind: 'info',
            title: 'Refresh queued',
            content: 'A market data refresh is in the jobs list; the store changes once it has finished.',
            mode: 'success',
          });
        },
        { refusals: 'modal' },
      ),
      'job-retry': intent(
        job,
        async (v) => {
          const retried = await retryJobAsAdmin(user.id, v.job_id);
          return redirectWithModal(session, '/admin#jobs', {
            kind: 'info',
            title: 'Job queued again',
            content: `The ${retried.kind} job is back in the queue.`,
            mode: 'success',
          });
        },
        { refusals: 'modal' },
      ),
      'job-cancel': intent(
        job,
        async (v) => {
          const cancelled = await cancelJobAsAdmin(user.id, v.job_id);
          const content = cancelled.cancelRequested
            ? `The running ${cancelled.kind} job was asked to stop; it stops at its next step.`
            : `The ${cancelled.kind} job was cancelled before it started.`;
          return redirectWithModal(session, '/admin#jobs', { kind: 'info', title: 'Job cancelled', content, mode: 'info' });
        },
        { refusals: 'modal' },
      ),
    },
  });
}

export default function AdminPage() {
  const d = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <>
      <h1>Administration</h1>
      <p>
        Signed in as superuser <strong>{d.email}</strong>.
      </p>
      <nav aria-label="Admin sections" className="segmented">
        <a href="#users">Users</a>
        <a href="#jobs">Jobs</a>
        <a href="#data">Market data</a>
        <a href="#sources">Data sources</a>
        <a href="#audit">Audit log</a>
      </nav>
      <ActionErrors result={failed} />
      <UsersPanel query={d.query} search={d.search} users={d.users} />
      <JobsPanel jobs={d.jobs} action="/admin" />
      <DataStatusPanel data={d.data} />
      <MarketSourcesPanel data={d.sources} />
      <AuditLogPanel audit={d.audit} href={(page) => adminHref(d.query, { audit_page: page }, '#audit')} />
    </>
  );
}
