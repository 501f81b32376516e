import { config, type BillingConfig } from '../config.server';
import { notFound } from '../http/errors';

export const BILLING_OFF_DETAIL = 'Billing is not enabled on this instance.';

/** The billing settings, or the 404 every billing endpoint answers when billing is off. */
export function requireBilling(): BillingConfig {
  const billing = config().billing;
  if (!billing) throw notFound(BILLING_OFF_DETAIL);
  return billing;
}
