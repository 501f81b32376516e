import { Form, Link } from '@remix-run/react';
import type { WatchlistMembership } from '~/services/watchlist/model';

// The watchlist box of every company tab: one plain POST form per list (no JavaScript needed),
// answered by the company layout's action with a redirect back to the same tab.

export function CompanyWatchlists({
  ticker,
  permaticker,
  lists,
  back,
}: {
  ticker: string;
  permaticker: number;
  /** The user's lists, or null when the account has no access to watchlists. */
  lists: WatchlistMembership[] | null;
  /** The tab's path and query, to come back to. */
  back: string;
}) {
  return (
    <section className="company-watchlists" aria-labelledby="company-watchlists-title" data-testid="watchlist-slot" id="watchlists">
      <h2 id="company-watchlists-title">Watchlists</h2>
      {lists === null ? (
        <p className="muted">
          Watchlists come with full access.{' '}
          <Link to={`/finish-profile-creation?${new URLSearchParams({ redirectTo: back })}`}>Finish your profile</Link>
        </p>
      ) : (
        <ul>
          {lists.map((l) => (
            <li key={l.id}>
              <Form method="post" action={`/company/${permaticker}`} preventScrollReset className="inline-form">
                <input type="hidden" name="intent" value={l.contains ? 'watchlist-remove' : 'watchlist-add'} />
                <input type="hidden" name="list" value={l.id} />
                <input type="hidden" name="redirect_to" value={back} />
                {l.contains ? (
                  <>
                    <span className="company-watchlists__on">
                      <span aria-hidden="true">✓ </span>On <Link to={`/watchlist?list=${encodeURIComponent(l.id)}`}>{l.name}</Link>
                    </span>
                    <button type="submit" className="button button--small">
                      Remove {ticker} from {l.name}
                    </button>
                  </>
                ) : (
                  <button type="submit" className="button button--small">
                    Add {ticker} to {l.name}
                  </button>
                )}
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
