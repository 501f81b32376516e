import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { pathNotFound } from '~/services/http/page-errors';

// Any path no route matches: the 404 page "Page not found: {path}", inside the default
// layout so the navigation is there to go on from.
export async function loader({ request }: LoaderFunctionArgs) {
  pathNotFound(request);
}

export const meta: MetaFunction = () => [{ title: 'Page Not Found · Quarry' }];

export default function NotFound() {
  return null;
}
