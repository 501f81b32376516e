import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { EmptyState } from '~/ui/layout/EmptyState';

export const meta: MetaFunction = () => [{ title: 'Watchlist · Quarry' }];
export const handle = { pageName: 'watchlist' };

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  return null;
}

export default function WatchlistPage() {
  return (
    <>
      <h1>Watchlist</h1>
      <EmptyState title="Your watchlist is empty">
        <p>
          Companies you add to a watchlist will be listed here. Find companies with the <Link to="/company">company search</Link>.
        </p>
      </EmptyState>
    </>
  );
}
