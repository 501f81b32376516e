import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { guard } from '~/services/auth/guard.server';
import { EmptyState } from '~/ui/layout/EmptyState';

export const meta: MetaFunction = () => [{ title: 'Data browser · Quarry' }];
export const handle = { pageName: 'data-browser' };

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  return null;
}

export default function DataBrowserPage() {
  return (
    <>
      <h1>Data browser</h1>
      <EmptyState title="Pick a company and a metric">
        <p>The data browser shows the history of any metric of any company, with the filing each value comes from.</p>
      </EmptyState>
    </>
  );
}
