import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from '@remix-run/react';
import { useEffect } from 'react';
import { loadRootData } from './services/auth/root-data.server';
import { TagManagerScript, usePageViews } from './ui/analytics/TagManager';
import { reloadIfNewBuild } from './ui/build-updates';
import { RouteErrorPage } from './ui/errors/ErrorPage';
import { DefaultLayout } from './ui/layout/DefaultLayout';
import { ModalHost } from './ui/modals/ModalHost';
import type { ModalState } from '~/services/http/modal-state';
import { useNonce } from './ui/nonce';
import stylesUrl from './ui/styles.css?url';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesUrl },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = ({ error }) => {
  if (!error) return [{ title: 'Quarry' }];
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return [{ title: `${notFound ? 'Page Not Found' : 'Internal Server Error'} · Quarry` }];
};

export async function loader({ request }: LoaderFunctionArgs) {
  const { body, setCookie } = await loadRootData(request);
  return data(body, setCookie ? { headers: { 'Set-Cookie': setCookie } } : undefined);
}

export type RootData = Awaited<ReturnType<typeof loadRootData>>['body'];

/** The modal to show: the deepest route's `modal` (a `?modal=` state), else the root's flash. */
function useServerModal(root: RootData | undefined): ModalState | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const d = matches[i].data as { modal?: ModalState | null } | undefined;
    if (d && typeof d === 'object' && d.modal) return d.modal;
  }
  return root?.modal ?? null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const root = useRouteLoaderData<typeof loader>('root') as RootData | undefined;
  return (
    <html lang="en" data-color-scheme="light" style={{ colorScheme: 'light' }}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light only" />
        <Meta />
        <Links />
        <TagManagerScript config={root?.tagManager ?? null} />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const root = useRouteLoaderData<typeof loader>('root') as RootData | undefined;
  const location = useLocation();
  const modal = useServerModal(root);
  usePageViews(root?.tagManager ?? null);
  useEffect(() => {
    reloadIfNewBuild(location.pathname);
  }, [location.pathname]);
  // Marks the document once React has hydrated it: until then a click or a keystroke reaches only
  // the server-drawn page (end-to-end tests wait for this before typing into live controls).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <ModalHost serverModal={modal}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Outlet />
    </ModalHost>
  );
}

// Errors of routes outside the two layouts (and of the root loader itself): still the default
// layout with its navigation; without the root's data it offers sign-in instead of the account.
export function ErrorBoundary() {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <DefaultLayout>
        <RouteErrorPage />
      </DefaultLayout>
    </>
  );
}
