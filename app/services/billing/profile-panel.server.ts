import { config } from '../config.server';
import { isDomainError } from '../http/errors';
import { listPlans } from './plans.server';
import { listUserSubscriptions } from './subscriptions.server';
import type { SubscriptionPanelData } from './types';

/** Loader helper of /profile's subscription panel; null when billing is off. */
export async function loadSubscriptionPanel(userId: string, request: Request, now = new Date()): Promise<SubscriptionPanelData | null> {
  const billing = config().billing;
  if (!billing) return null;
  const subscriptions = await listUserSubscriptions(billing, userId, now);
  const subscribed = subscriptions.some((s) => s.grants_access);
  let plans: SubscriptionPanelData['plans'] = [];
  let plansError: string | null = null;
  if (!subscribed) {
    try {
      plans = await listPlans();
    } catch (e) {
      // The profile page must stay usable when the provider is down: say so in the panel.
      if (!isDomainError(e)) throw e;
      plansError = `The plans could not be loaded: ${e.detail}`;
    }
  }
  return {
    subscriptions,
    plans,
    plansError,
    subscribed,
    overlayScriptUrl: billing.overlayScriptUrl,
    awaitingConfirmation: !subscribed && new URL(request.url).searchParams.get('checkout') === 'done',
  };
}
