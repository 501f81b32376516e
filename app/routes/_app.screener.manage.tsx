import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { EmptyState } from '~/ui/layout/EmptyState';

export const meta: MetaFunction = () => [{ title: 'Saved screeners · Quarry' }];
export const handle = { pageName: 'screener-manage' };

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  return null;
}

export default function ManageScreenersPage() {
  return (
    <>
      <h1>Saved screeners</h1>
      <EmptyState title="No saved screeners">
        <p>
          You have not saved any screeners. Screens you save from the <Link to="/screener">screener</Link> will be listed here.
        </p>
      </EmptyState>
    </>
  );
}
