import { z } from 'zod';
import { config } from '../config.server';
import { defineJob } from '../jobs/registry';
import { reconcileSubscriptions } from './reconcile.server';

// Reconciliation as a recurring job: every six hours one worker re-reads the subscriptions from
// the provider, so a missed webhook heals without anyone running `npm run billing:reconcile`.

export const RECONCILE_EVERY_MS = 6 * 3_600_000;

export const billingReconcileJob = defineJob({
  kind: 'billing-reconcile',
  payload: z.object({}),
  async run() {
    const r = await reconcileSubscriptions();
    return { message: `Reconciled ${r.seen} subscription(s): ${r.applied} stored, ${r.gone} gone, ${r.unlinked} without an account` };
  },
  recurring: { everyMs: RECONCILE_EVERY_MS, timeoutMs: 10 * 60_000, enabled: () => config().billing !== null },
});
