import { ConfigError, config } from '../app/services/config.server';
import { closeDb } from '../app/services/db/db.server';
import { isDomainError } from '../app/services/http/errors';
import { reconcileSubscriptions } from '../app/services/billing/reconcile.server';

// npm run billing:reconcile — re-reads the subscriptions from the payment provider so a missed
// webhook heals. Safe to run at any time, from cron or by hand, alongside the app.

async function main(): Promise<number> {
  try {
    if (!config().billing) {
      console.error(
        'Billing is not enabled: set BILLING_PROVIDER, BILLING_API_KEY, BILLING_STORE_ID, BILLING_VARIANT_IDS and BILLING_WEBHOOK_SECRET.',
      );
      return 2;
    }
    const r = await reconcileSubscriptions();
    console.log(
      `Reconciled ${r.seen} subscription(s): ${r.applied} stored, ${r.stale} already newer, ${r.unlinked} without a matching account, ` +
        `${r.malformed} not understood, ${r.gone} no longer at the provider; ${r.prunedWebhookKeys} old webhook key(s) pruned.`,
    );
    return 0;
  } catch (e) {
    if (e instanceof ConfigError || isDomainError(e)) {
      console.error(`Reconciliation failed: ${e instanceof ConfigError ? e.message : e.detail}`);
      return 1;
    }
    throw e;
  } finally {
    await closeDb();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error('billing:reconcile failed:', e);
    process.exit(1);
  },
);
