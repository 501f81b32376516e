import { Outlet } from '@remix-run/react';
import { RouteErrorPage } from '~/ui/errors/ErrorPage';
import { DefaultLayout } from '~/ui/layout/DefaultLayout';

// Pathless layout route: the default layout. It guards nothing — every child calls guard().
export default function DefaultLayoutRoute() {
  return (
    <DefaultLayout>
      <Outlet />
    </DefaultLayout>
  );
}

// A page of this layout that fails (unknown company, foreign screener, …) shows the error page
// inside the layout, navigation included.
export function ErrorBoundary() {
  return (
    <DefaultLayout>
      <RouteErrorPage />
    </DefaultLayout>
  );
}
