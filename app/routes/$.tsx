import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';

// Any path no route matches: the 404 page "Page not found: {path}".
export async function loader({ request }: LoaderFunctionArgs) {
  const path = new URL(request.url).pathname;
  throw new Response(`Page not found: ${path}`, { status: 404, statusText: 'Not Found' });
}

export const meta: MetaFunction = () => [{ title: 'Page Not Found · Quarry' }];

export default function NotFound() {
  return null;
}
