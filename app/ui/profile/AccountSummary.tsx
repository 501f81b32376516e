import { Link } from '@remix-run/react';

type Summary = { email: string; full_name: string; has_access: boolean; is_superuser: boolean; profile_finished: boolean };

/** `subscribe`: billing is on, so a finished profile still needs a subscription (the panel below). */
export function AccountSummary({ user, subscribe = false }: { user: Summary; subscribe?: boolean }) {
  return (
    <section className="card" aria-labelledby="account-heading">
      <h2 id="account-heading">Account</h2>
      <dl>
        <dt>E-mail</dt>
        <dd data-testid="profile-email">{user.email}</dd>
        <dt>Name</dt>
        <dd data-testid="profile-name">{user.full_name}</dd>
        <dt>Access</dt>
        <dd>
          {user.has_access ? (
            'Full access'
          ) : subscribe && user.profile_finished ? (
            <a href="#subscription-heading">Subscribe below to get full access</a>
          ) : (
            <Link to="/finish-profile-creation">Finish your profile to get full access</Link>
          )}
        </dd>
        {user.is_superuser ? (
          <>
            <dt>Role</dt>
            <dd>Administrator</dd>
          </>
        ) : null}
      </dl>
      <p>
        <Link to="?modal=change-name" className="button">
          Change name…
        </Link>
      </p>
    </section>
  );
}
