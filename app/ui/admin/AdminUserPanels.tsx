import { Form, Link } from '@remix-run/react';
import type { AdminUserDetail } from '~/services/admin/users.server';
import { Timestamp } from '../Timestamp';

// The panels of /admin/users/$id: the account's facts, and its changes as POST buttons (access,
// role, disable/enable) and the delete link that opens the confirm dialog.

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

export function AdminUserPanels({ u, self }: { u: Detail; self: boolean }) {
  return (
    <>
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
      <dt>Created</dt>
      <dd>
        <Timestamp iso={u.created_at} />
      </dd>
      <dt>Last change</dt>
      <dd>
        <Timestamp iso={u.updated_at} />
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
