import { notFound } from '../http/errors';
import { formatPrice, intervalLabel } from './access';
import { requireBilling } from './billing-config.server';
import { providerClient } from './lemonsqueezy-client.server';
import type { Plan } from './types';

// The plans are the operator's configured variants, read from the provider (name, price,
// interval) with the store's currency. They change rarely and the profile page shows them on
// every visit, so answers are kept for a few minutes per API URL; a failure is not kept.

const TTL_MS = 5 * 60_000;
const cache = new Map<string, { at: number; value: Promise<unknown> }>();

function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value as Promise<T>;
  const value = load();
  cache.set(key, { at: Date.now(), value });
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  return value;
}

export const PLAN_NOT_FOUND_DETAIL = 'Plan not found.';

/** One configured plan; any other variant id is 404 without asking the provider. */
export async function getPlan(variantId: string): Promise<Plan> {
  const billing = requireBilling();
  if (!billing.variantIds.includes(variantId)) throw notFound(PLAN_NOT_FOUND_DETAIL);
  const client = providerClient();
  const prefix = `${billing.apiUrl}|${billing.storeId}`;
  const [store, variant] = await Promise.all([
    cached(`${prefix}|store`, () => client.getStore()),
    cached(`${prefix}|variant|${variantId}`, () => client.getVariant(variantId)),
  ]);
  const a = variant.attributes;
  const interval = a.is_subscription === false ? null : (a.interval ?? null);
  const count = interval ? (a.interval_count ?? 1) : null;
  return {
    id: variant.id,
    name: a.name,
    price: a.price,
    currency: store.currency,
    price_formatted: formatPrice(a.price, store.currency),
    interval,
    interval_count: count,
    interval_label: intervalLabel(interval, count),
  };
}

/** Every configured plan, in the operator's order. */
export function listPlans(): Promise<Plan[]> {
  return Promise.all(requireBilling().variantIds.map(getPlan));
}
