import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { requireUser } from '~/services/auth/guard.server';
import { redirectWithModal } from '~/services/auth/session.server';
import { subscriptionDetail } from '~/services/billing/account.server';
import { ProviderIdParam } from '~/services/billing/schemas';
import { SUBSCRIPTION_NOT_FOUND_DETAIL } from '~/services/billing/subscriptions.server';
import { isDomainError } from '~/services/http/errors';
import { pageError, pageNotFound } from '~/services/http/page-errors';

// GET /profile/billing-portal/{subscription_id}: the "Manage subscription" link. The provider's
// customer portal link is signed for 24 hours, so it is fetched when the link is followed and
// the browser is sent on (302). Another account's subscription is 404.

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, session } = await requireUser(request);
  const id = ProviderIdParam.safeParse(params.subscription_id);
  if (!id.success) pageNotFound(SUBSCRIPTION_NOT_FOUND_DETAIL);
  try {
    const detail = await subscriptionDetail(user.id, id.data);
    if (detail.urls.customer_portal) return redirect(detail.urls.customer_portal);
    return redirectWithModal(session, '/profile', {
      kind: 'info',
      title: 'Subscription',
      content: `The payment provider has no customer portal for this subscription (${detail.status_label.toLowerCase()}).`,
      mode: 'info',
    });
  } catch (e) {
    if (!isDomainError(e) || e.status === 404) pageError(e);
    return redirectWithModal(session, '/profile', { kind: 'error', title: 'Subscription', error: { detail: e.detail } });
  }
}

// Never shown (the loader always redirects or throws), but a component makes this a page route:
// another account's subscription gets the 404 page in the layout rather than a bare text answer.
export default function BillingPortalLink() {
  return null;
}
