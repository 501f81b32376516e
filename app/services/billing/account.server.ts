import { getDb } from '../db/db.server';
import { requireBilling } from './billing-config.server';
import { providerClient, ProviderError } from './lemonsqueezy-client.server';
import { listPlans } from './plans.server';
import { applySnapshot, findUserSubscription, listUserSubscriptions, markSubscriptionGone, subscriptionView } from './subscriptions.server';
import type { Plan, SubscriptionDetail, SubscriptionView } from './types';

// What an account sees of billing: its subscriptions and the plans on offer, and one
// subscription read fresh from the provider with its customer-facing links.

export async function billingOverview(userId: string, now = new Date()): Promise<{ subscriptions: SubscriptionView[]; plans: Plan[] }> {
  const billing = requireBilling();
  const [subscriptions, plans] = await Promise.all([listUserSubscriptions(billing, userId, now), listPlans()]);
  return { subscriptions, plans };
}

/**
 * One of the caller's subscriptions (another account's id is 404 before the provider is asked),
 * re-read from the provider: the portal links are signed for 24 hours, so they are never stored,
 * and the fresh snapshot is stored on the way (a read heals a missed webhook too).
 */
export async function subscriptionDetail(userId: string, providerId: string, now = new Date()): Promise<SubscriptionDetail> {
  const billing = requireBilling();
  await findUserSubscription(billing, userId, providerId);
  let urls: SubscriptionDetail['urls'] = { customer_portal: null, update_payment_method: null };
  try {
    const s = await providerClient().getSubscription(providerId);
    await applySnapshot(await getDb(), billing, s, { now });
    urls = {
      customer_portal: s.attributes.urls?.customer_portal ?? null,
      update_payment_method: s.attributes.urls?.update_payment_method ?? null,
    };
  } catch (e) {
    if (!(e instanceof ProviderError && e.providerStatus === 404)) throw e;
    await markSubscriptionGone(billing, providerId, now);
  }
  return { ...subscriptionView(await findUserSubscription(billing, userId, providerId), now), urls };
}
