import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { guard } from '~/services/auth/guard.server';
import { pathNotFound } from '~/services/http/page-errors';
import { authenticateOAuth, clearFlowCookies, flowRedirectTo, isOAuthProvider, OAuthSignInError } from '~/services/auth/oauth.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import { commitSession, flashModal, setSignedIn } from '~/services/auth/session.server';

// /oauth/{id}: without `state` it starts the provider's flow (a redirect there); the provider's
// callback (code + state) signs the user in. Failures land on /login with an error modal.

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { session } = await guard(request);
  const id = params.id ?? '';
  if (!isOAuthProvider(id)) pathNotFound(request);

  let user: Awaited<ReturnType<typeof authenticateOAuth>>;
  const headers = new Headers();
  try {
    user = await authenticateOAuth(request, id);
    if (user instanceof Response) return user;
  } catch (e) {
    if (!(e instanceof OAuthSignInError)) throw e;
    flashModal(session, { kind: 'error', title: 'Social sign-in failed', error: { detail: e.detail } });
    headers.append('Set-Cookie', await commitSession(session));
    for (const cookie of clearFlowCookies(request, id)) headers.append('Set-Cookie', cookie);
    return redirect('/login', { headers });
  }

  const back = await flowRedirectTo(request, id);
  setSignedIn(session, await issueUserToken(user.id), user);
  headers.append('Set-Cookie', await commitSession(session));
  for (const cookie of clearFlowCookies(request, id)) headers.append('Set-Cookie', cookie);
  // A user without has_access finishes the profile first.
  return redirect(user.has_access ? (back ?? '/') : '/finish-profile-creation', { headers });
}

// Never shown in practice (the loader always redirects or throws); having a component makes this
// a page route, so an unknown provider gets the app's 404 page rather than a bare text answer.
export default function OAuthFlowPage() {
  return <p>Redirecting to the sign-in provider…</p>;
}

export const meta: MetaFunction = () => [{ title: 'Social sign-in · Quarry' }];
