import { Outlet } from '@remix-run/react';
import { RouteErrorPage } from '~/ui/errors/ErrorPage';
import { WelcomeLayout } from '~/ui/layout/WelcomeLayout';

// Pathless layout route: the welcome layout of the pages that need no authentication.
export default function WelcomeLayoutRoute() {
  return (
    <WelcomeLayout>
      <Outlet />
    </WelcomeLayout>
  );
}

export function ErrorBoundary() {
  return (
    <WelcomeLayout>
      <RouteErrorPage />
    </WelcomeLayout>
  );
}
