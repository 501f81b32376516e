import { config } from '../config.server';
import { conflict, unprocessable } from '../http/errors';
import { requireBilling } from './billing-config.server';
import { providerClient } from './lemonsqueezy-client.server';
import { hasGrantingSubscription } from './subscriptions.server';

// A hosted checkout for one configured plan. Our user id travels in the checkout's custom data
// and comes back in every webhook about the subscription it creates (meta.custom_data.user_id).

export const ALREADY_SUBSCRIBED_DETAIL = 'You already have an active subscription. Manage it from your profile.';

export async function initCheckout(
  user: { id: string; email: string; full_name: string },
  variantId: string,
  now = new Date(),
): Promise<{ checkout_url: string }> {
  const billing = requireBilling();
  if (!billing.variantIds.includes(variantId)) {
    throw unprocessable('Choose one of the plans offered.', { variant_id: ['Choose one of the plans offered.'] });
  }
  // A second subscription would charge the customer twice; plan changes go through the portal.
  if (await hasGrantingSubscription(billing, user.id, now)) throw conflict(ALREADY_SUBSCRIBED_DETAIL);
  const url = await providerClient().createCheckout({
    variantId,
    userId: user.id,
    email: user.email,
    name: user.full_name,
    redirectUrl: `${config().appUrl}/profile?checkout=done`,
  });
  return { checkout_url: url };
}
