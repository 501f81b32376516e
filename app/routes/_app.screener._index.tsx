import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { EmptyState } from '~/ui/layout/EmptyState';

export const meta: MetaFunction = () => [{ title: 'Screener · Quarry' }];
export const handle = { pageName: 'screener' };

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  return null;
}

export default function ScreenerPage() {
  return (
    <>
      <h1>Stock screener</h1>
      <EmptyState title="The screener is not available yet">
        <p>
          Building screens over the point-in-time data is being added to this instance. Until then, explore any metric of any company
          in the <Link to="/data-browser">data browser</Link>.
        </p>
      </EmptyState>
    </>
  );
}
