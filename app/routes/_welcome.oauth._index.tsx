import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { listProviders } from '~/services/auth/oauth.server';
import { safeRedirectPath } from '~/services/auth/redirects';

// /oauth (welcome layout, no authentication): the social sign-in providers of this instance.
// Plain links start each flow, so the page works without JavaScript.

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'), '');
  return { providers: listProviders(), redirectTo };
}

export default function OAuthProvidersPage() {
  const { providers, redirectTo } = useLoaderData<typeof loader>();
  const query = redirectTo ? `?${new URLSearchParams({ redirectTo })}` : '';
  return (
    <>
      <h1>Social sign-in</h1>
      {providers.length > 0 ? (
        <>
          <p>Sign in or create your account with one of these providers.</p>
          <ul className="oauth-providers" style={{ listStyle: 'none', padding: 0, display: 'grid', gap: '0.5rem' }}>
            {providers.map((p) => (
              <li key={p.id}>
                <a href={`/oauth/${p.id}${query}`} className="button" style={{ width: '100%' }}>
                  Continue with {p.name}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>Social sign-in is not set up on this instance: its operator has not configured any provider.</p>
      )}
      <div className="welcome__links">
        <Link to={redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : '/login'}>Sign in with your e-mail and password</Link>
        <Link to="/register">Create an account</Link>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: 'Social sign-in · Quarry' }];
