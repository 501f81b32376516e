import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { adminUserPage } from '~/services/admin/page.server';
import { deleteUserAsAdmin, setAccess, setDisabled, setSuperuser, type AdminUserDetail } from '~/services/admin/users.server';
import { requireUser } from '~/services/auth/guard.server';
import { redirectWithModal } from '~/services/auth/session.server';
import { isDomainError } from '~/services/http/errors';
import { UtcTime } from '~/ui/admin/UtcTime';
import type { ModalState } from '~/services/http/modal-state';

// /admin/users/$id: one account as a superuser sees it, and the changes: access (grant, revoke,
// follow the rules), superuser role, disable / enable, delete (confirm dialog). Every change is
// a POST form that redirects back with a message; the guard's /admin rule covers this path.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data && 'user' in data ? data.user.email : 'User'} · Admin · Quarry` },
];
export const handle = { pageName: 'admin-user' };

const IdSchema = z.string().regex(/^[A-Za-z0-9-]{1,64}$/);

const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('access'), access: z.enum(['grant', 'revoke', 'rules']) }),
  z.object({ intent: z.literal('superuser'), superuser: z.enum(['make', 'unmake']) }),
  z.object({ intent: z.literal('disable') }),
  z.object({ intent: z.literal('enable') }),
  z.object({ intent: z.literal('delete'), confirmed: z.string().optional() }),
]);

/** The account id from the URL; anything that cannot be an id is simply not found. */
function userIdOf(params: { id?: string }): string {
  const parsed = IdSchema.safeParse(params.id);
  if (!parsed.success) throw new Response('User not found.', { status: 404 });
  return parsed.data;
}

function pageModal(url: URL, user: AdminUserDetail): ModalState | null {
  if (url.searchParams.get('modal') !== 'delete') return null;
  return {
    kind: 'confirm',
    title: 'Delete this account?',
    content: `${user.full_name} <${user.email}> and everything saved with it (screeners, watchlists, backtests) are deleted for good. This cannot be undone.`,
    action: `/admin/users/${user.id}`,
    confirmLabel: 'Delete account',
    danger: true,
    fields: { intent: 'delete' },
  };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user: actor } = await requireUser(request);
  const id = userIdOf(params);
  try {
    const user = await adminUserPage(actor.id, id);
    return { user, self: user.id === actor.id, modal: pageModal(new URL(request.url), user) };
  } catch (e) {
    if (isDomainError(e) && e.status === 404) throw new Response(e.detail, { status: 404 });
    throw e;
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user: actor, session } = await requireUser(request);
  const id = userIdOf(params);
  const back = `/admin/users/${id}`;
  const formData = await request.formData();
  // Cancel or close of the confirm dialog posts cancelled=true: nothing changes.
  if (formData.get('cancelled') === 'true') return redirect(back);
  const submission = parseWithZod(formData, { schema: ActionSchema });
  if (submission.status !== 'success') return data({ detail: 'Unknown action.' }, { status: 400 });
  const v = submission.value;
  const done = (title: string, content: string) => redirectWithModal(session, back, { kind: 'info', title, content, mode: 'success' });
  try {
    switch (v.intent) {
      case 'access': {
        const u = await setAccess(actor.id, id, v.access);
        const how = { grant: 'is granted', revoke: 'is revoked', rules: 'now follows the rules' }[v.access];
        return done(
          'Access changed',
          `Access for ${u.email} ${how}: ${u.has_access ? 'full access' : 'no access'} from the next page they open.`,
        );
      }
      case 'superuser': {
        const u = await setSuperuser(actor.id, id, v.superuser === 'make');
        return done('Role changed', u.is_superuser ? `${u.email} is now a superuser.` : `${u.email} is no longer a superuser.`);
      }
      case 'disable': {
        const u = await setDisabled(actor.id, id, true);
        return done('Account disabled', `${u.email} is disabled and was signed out everywhere.`);
      }
      case 'enable': {
        const u = await setDisabled(actor.id, id, false);
        return done('Account enabled', `${u.email} can sign in again.`);
      }
      case 'delete': {
        if (v.confirmed !== 'true') return redirect(back);
        const { email } = await deleteUserAsAdmin(actor.id, id);
        return redirectWithModal(session, '/admin', {
          kind: 'info',
          title: 'Account deleted',
          content: `${email} and its data were deleted.`,
          mode: 'info',
        });
      }
    }
  } catch (e) {
    if (!isDomainError(e)) throw e;
    if (e.status === 404) throw new Response(e.detail, { status: 404 });
    // The actor lost the superuser role meanwhile: /admin is no longer theirs.
    if (e.status === 403) return redirect('/');
    return redirectWithModal(session, back, {
      kind: 'error',
      title: 'Could not change the account',
      error: { detail: e.detail },
      warning: true,
    });
  }
}

type Detail = AdminUserDetail;

function ActionButton({
  intent,
  name,
  value,
  children,
  danger,
}: {
  intent: string;
  name?: string;
  value?: string;
  children: string;
  danger?: boolean;
}) {
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value={intent} />
      {name && value ? <input type="hidden" name={name} value={value} /> : null}
      <button type="submit" className={`button${danger ? ' button--danger' : ''}`}>
        {children}
      </button>
    </Form>
  );
}

const ACCESS_BUTTONS = [
  ['grant', 'Grant access'],
  ['revoke', 'Revoke access'],
  ['rules', 'Follow the rules'],
] as const;

export default function AdminUserPage() {
  const { user: u, self } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <>
      <p>
        <Link to="/admin">← Back to administration</Link>
      </p>
      <h1>{u.full_name}</h1>
      {failed && 'detail' in failed ? (
        <p className="form-errors" role="alert">
          {failed.detail}
        </p>
      ) : null}
      <section className="card" aria-labelledby="account-heading">
        <h2 id="account-heading">Account</h2>
        <AccountFacts u={u} />
      </section>
      <section className="card" aria-labelledby="access-heading">
        <h2 id="access-heading">Access</h2>
        <p data-testid="admin-user-access">
          <strong>{u.has_access ? 'Full access' : 'No access'}.</strong> {u.access_reason}
        </p>
        <div className="screener-actions">
          {ACCESS_BUTTONS.filter(([mode]) => mode !== u.access_mode).map(([mode, text]) => (
            <ActionButton key={mode} intent="access" name="access" value={mode}>
              {text}
            </ActionButton>
          ))}
        </div>
      </section>
      <section className="card" aria-labelledby="role-heading">
        <h2 id="role-heading">Role and status</h2>
        <p>
          {u.is_superuser ? 'Superuser: may open the admin page.' : 'Regular user.'} {u.disabled ? 'Disabled: cannot sign in.' : 'Active.'}
        </p>
        <div className="screener-actions">
          {u.is_superuser ? (
            <ActionButton intent="superuser" name="superuser" value="unmake">
              Remove superuser role
            </ActionButton>
          ) : (
            <ActionButton intent="superuser" name="superuser" value="make">
              Make superuser
            </ActionButton>
          )}
          {u.disabled ? (
            <ActionButton intent="enable">Enable account</ActionButton>
          ) : self ? null : (
            <ActionButton intent="disable" danger>
              Disable account
            </ActionButton>
          )}
        </div>
        {self ? <p className="muted">This is your own account: you cannot disable or delete it here.</p> : null}
      </section>
      {self ? null : (
        <section className="card" aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete account</h2>
          <p>Deletes the account with its screeners, watchlists and backtests.</p>
          <Link to="?modal=delete" className="button button--danger">
            Delete account…
          </Link>
        </section>
      )}
    </>
  );
}

function AccountFacts({ u }: { u: Detail }) {
  return (
    <dl className="key-values">
      <dt>E-mail</dt>
      <dd data-testid="admin-user-email">{u.email}</dd>
      <dt>Name</dt>
      <dd>{u.full_name}</dd>
      <dt>Created (UTC)</dt>
      <dd>
        <UtcTime iso={u.created_at} />
      </dd>
      <dt>Last change (UTC)</dt>
      <dd>
        <UtcTime iso={u.updated_at} />
      </dd>
      <dt>Profile</dt>
      <dd>{u.profile_finished ? 'Finished' : 'Not finished'}</dd>
      <dt>Sign-in methods</dt>
      <dd>{u.sign_in_methods.length > 0 ? u.sign_in_methods.join(', ') : 'none'}</dd>
      <dt>Active sessions</dt>
      <dd>{u.counts.sessions}</dd>
      <dt>Screeners</dt>
      <dd>{u.counts.screeners}</dd>
      <dt>Watchlists</dt>
      <dd>{u.counts.watchlists}</dd>
      <dt>Backtests</dt>
      <dd>{u.counts.backtests}</dd>
    </dl>
  );
}
