import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { isOAuthProvider } from '~/services/auth/oauth.server';
import { errorResponse, methodNotAllowed } from '~/services/http/api.server';

// "The browser is redirected to the API's /auth/signin/{provider}". The flow itself
// lives at /oauth/{provider}; this keeps the API's address working (query kept, e.g. redirectTo).

export function loader({ request, params }: LoaderFunctionArgs) {
  const id = params.provider ?? '';
  if (!isOAuthProvider(id)) return errorResponse(404, `Unknown sign-in provider: ${id.slice(0, 64)}`);
  return redirect(`/oauth/${id}${new URL(request.url).search}`, 302);
}

export const action = () => methodNotAllowed(['GET']);
