import { getDb } from '../db/db.server';
import { requireBilling } from './billing-config.server';
import { providerClient, ProviderError } from './lemonsqueezy-client.server';
import { applySnapshot, markSubscriptionGone, type SnapshotOutcome } from './subscriptions.server';
import { SubscriptionResource } from './wire';

// Reconciliation: re-read the store's subscriptions, and every subscription we know that the
// list did not return, from the provider's API, and store each snapshot. A missed webhook heals
// on the next run. Idempotent, and safe to run concurrently with itself and with webhooks:
// every write is the same "unless a newer snapshot is stored" upsert.

/** The list is paged by 100; this bounds a run against a provider that never says "last page". */
const MAX_PAGES = 1000;

/**
 * Processed-webhook keys only need to outlive the provider's re-sends (three retries within
 * minutes, or a manual resend from its dashboard); older ones are pruned by each run.
 */
export const WEBHOOK_KEY_RETENTION_DAYS = 90;

export type ReconcileReport = {
  /** Subscriptions the provider returned (list and single reads). */
  seen: number;
  applied: number;
  stale: number;
  /** Subscriptions no account could be found for (custom data absent, e-mail unknown). */
  unlinked: number;
  /** Entries of the list that were not subscriptions Quarry understands. */
  malformed: number;
  /** Known subscriptions the provider no longer has (marked expired). */
  gone: number;
  /** Processed-webhook keys older than the retention that were removed. */
  prunedWebhookKeys: number;
};

export async function reconcileSubscriptions(now = new Date()): Promise<ReconcileReport> {
  const billing = requireBilling();
  const client = providerClient();
  const db = await getDb();
  const report: ReconcileReport = { seen: 0, applied: 0, stale: 0, unlinked: 0, malformed: 0, gone: 0, prunedWebhookKeys: 0 };
  const count = (outcome: SnapshotOutcome) => {
    if (outcome === 'applied' || outcome === 'stale' || outcome === 'unlinked') report[outcome] += 1;
  };
  const listed = new Set<string>();

  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, lastPage } = await client.listSubscriptions(page);
    for (const item of items) {
      const parsed = SubscriptionResource.safeParse(item);
      if (!parsed.success) {
        report.malformed += 1;
        continue;
      }
      listed.add(parsed.data.id);
      report.seen += 1;
      count(await applySnapshot(db, billing, parsed.data, { now }));
    }
    if (page >= lastPage || items.length === 0) break;
  }

  const known = await db.selectFrom('subscriptions').select('provider_id').where('provider', '=', billing.provider).execute();
  for (const { provider_id } of known) {
    if (listed.has(provider_id)) continue;
    try {
      const s = await client.getSubscription(provider_id);
      report.seen += 1;
      count(await applySnapshot(db, billing, s, { now }));
    } catch (e) {
      if (e instanceof ProviderError && e.providerStatus === 404) {
        if (await markSubscriptionGone(billing, provider_id, now)) report.gone += 1;
        continue;
      }
      throw e;
    }
  }

  const cutoff = new Date(now.getTime() - WEBHOOK_KEY_RETENTION_DAYS * 86_400_000).toISOString();
  const pruned = await db.deleteFrom('billing_webhook_events').where('received_at', '<', cutoff).executeTakeFirst();
  report.prunedWebhookKeys = Number(pruned.numDeletedRows);
  return report;
}
