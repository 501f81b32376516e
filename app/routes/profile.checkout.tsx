import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { readApiBody } from '~/services/auth/api.server';
import { requireUser } from '~/services/auth/guard.server';
import { redirectWithModal } from '~/services/auth/session.server';
import { initCheckout } from '~/services/billing/checkout.server';
import { InitCheckoutBody } from '~/services/billing/schemas';
import { errorResponse, jsonResponse } from '~/services/http/api.server';
import { isDomainError } from '~/services/http/errors';

// POST /profile/checkout {variant_id}: the Subscribe buttons of the profile page. Under /profile
// so a user without access may reach it. Without JavaScript it answers 302 to the
// provider's hosted checkout (or back to /profile with an error dialog); the page's script asks
// for JSON ({checkout_url} or {detail}) and opens the checkout in the provider's overlay.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect('/profile');
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  const wantsJson = (request.headers.get('Accept') ?? '').includes('application/json');
  try {
    const body = await readApiBody(request, InitCheckoutBody);
    const { checkout_url } = await initCheckout(user, body.variant_id);
    return wantsJson ? jsonResponse({ checkout_url }) : redirect(checkout_url);
  } catch (e) {
    if (!isDomainError(e)) throw e;
    if (wantsJson) return errorResponse(e.status, e.detail, { errors: e.fields, headers: e.headers });
    return redirectWithModal(session, '/profile', {
      kind: 'error',
      title: 'The checkout could not be opened',
      error: { detail: e.detail },
    });
  }
}
