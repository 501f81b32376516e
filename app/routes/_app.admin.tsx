import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';

export const meta: MetaFunction = () => [{ title: 'Admin · Quarry' }];
export const handle = { pageName: 'admin' };

export async function loader({ request }: LoaderFunctionArgs) {
  // Non-superusers are redirected to / by the guard (spec §2).
  const { user } = await guard(request);
  return { email: user?.email ?? '' };
}

export default function AdminPage() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Administration</h1>
      <p>
        Signed in as superuser <strong>{email}</strong>.
      </p>
      <section className="empty-state" aria-label="Administration tools">
        <p>User management, job control and data status are being added to this page.</p>
      </section>
    </>
  );
}
