import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { guard } from '~/services/auth/guard.server';
import { redirectWithModal, setSignedOut } from '~/services/auth/session.server';
import { revokeTokenHash } from '~/services/auth/tokens.server';

// Logout: clears name, initials, picture and tokens and sets guest to true. The
// token is revoked on the server too, so a copied cookie stops working.
export async function action({ request }: ActionFunctionArgs) {
  const { caller, session } = await guard(request);
  if (caller.kind === 'user') await revokeTokenHash(caller.tokenHash);
  setSignedOut(session);
  return redirectWithModal(session, '/login', { kind: 'info', title: 'Signed out', content: 'You are signed out.', mode: 'info' });
}

export function loader() {
  return redirect('/');
}
