import { Outlet } from '@remix-run/react';
import { DefaultLayout } from '~/ui/layout/DefaultLayout';

// Pathless layout route: the default layout. It guards nothing — every child calls guard().
export default function DefaultLayoutRoute() {
  return (
    <DefaultLayout>
      <Outlet />
    </DefaultLayout>
  );
}
