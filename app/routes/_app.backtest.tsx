import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { EmptyState } from '~/ui/layout/EmptyState';

export const meta: MetaFunction = () => [{ title: 'Backtest · Quarry' }];
export const handle = { pageName: 'backtest' };

export async function loader({ request }: LoaderFunctionArgs) {
  // The guard's page validation sends requests without screener_id or backtest_id to /screener.
  await guard(request);
  const url = new URL(request.url);
  return { screenerId: url.searchParams.get('screener_id'), backtestId: url.searchParams.get('backtest_id') };
}

export default function BacktestPage() {
  const { screenerId, backtestId } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Backtest</h1>
      <EmptyState title={backtestId ? `Backtest ${backtestId} was not found` : `No saved screener ${screenerId ?? ''}`}>
        <p>
          There is nothing to show for this link yet. Backtests run from a saved screener; see your{' '}
          <Link to="/screener/manage">saved screeners</Link>.
        </p>
      </EmptyState>
    </>
  );
}
