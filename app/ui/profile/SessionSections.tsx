import { Form, Link } from '@remix-run/react';

// The last sections of the profile: ending sessions and ending the account.

export function SignOutEverywhereSection() {
  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sign out everywhere</h2>
      <p>Signs you out on every device and browser, this one included. Use it if you signed in on a computer that is not yours.</p>
      <Form method="post">
        <input type="hidden" name="intent" value="sign-out-everywhere" />
        {/* Not "Sign out …": the header's "Sign out" button keeps a name no other control contains. */}
        <button type="submit" className="button">
          Sign me out everywhere
        </button>
      </Form>
    </section>
  );
}

export function DeleteAccountSection() {
  return (
    <section className="card" aria-labelledby="danger-heading">
      <h2 id="danger-heading">Delete account</h2>
      <p>Deletes your account, your saved screeners, backtests and watchlists, and your picture.</p>
      <Link to="?modal=delete-account" className="button button--danger">
        Delete account…
      </Link>
    </section>
  );
}
