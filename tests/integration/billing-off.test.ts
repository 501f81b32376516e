import { expect, it } from 'vitest';
import * as meRoute from '~/routes/api.v1.auth.me';
import * as webhookRoute from '~/routes/api.v1.billing.webhook';
import * as initCheckoutRoute from '~/routes/api.v1.order.init-checkout';
import * as subscriptionRoute from '~/routes/api.v1.subscription.$subscription_id';
import * as subscriptionsRoute from '~/routes/api.v1.subscription._index';
import * as variantRoute from '~/routes/api.v1.variant.$variant_id';
import { finishProfile, subscriptionGrantsAccess } from '~/services/auth/users.server';
import { loadSubscriptionPanel } from '~/services/billing/profile-panel.server';
import { getDb } from '~/services/db/db.server';
import { contentSecurityPolicy } from '~/services/http/security-headers.server';
import { callRoute } from '../support/api';
import { billingUser, WEBHOOK_SECRET } from '../support/billing';
import { forEachDatabase } from '../support/databases';
import { signWebhook } from '../support/lemonsqueezy';

// Self-hosting default: no BILLING_* set. Every billing endpoint says billing is off (404), and
// has_access follows the finished profile alone.

const OFF = { detail: 'Billing is not enabled on this instance.' };

forEachDatabase('billing off', () => {
  it('answers 404 with a clear detail on every billing endpoint', async () => {
    const { token } = await billingUser('off@example.com');
    const body = JSON.stringify({ meta: { event_name: 'subscription_created' }, data: {} });
    const answers = [
      await callRoute(subscriptionsRoute, { token, path: '/api/v1/subscription/' }),
      await callRoute(subscriptionRoute, { token, params: { subscription_id: '1' } }),
      await callRoute(variantRoute, { token, params: { variant_id: '1' } }),
      await callRoute(initCheckoutRoute, { token, json: { variant_id: '1' } }),
      await callRoute(webhookRoute, {
        method: 'POST',
        body,
        headers: { 'X-Signature': signWebhook(body, WEBHOOK_SECRET), 'Content-Type': 'application/json' },
      }),
    ];
    for (const a of answers) expect([a.status, a.body]).toEqual([404, OFF]);
    // Who is asking is decided first, as on the profile page: no token is 401 whether billing is on or off.
    expect((await callRoute(subscriptionsRoute, { path: '/api/v1/subscription/' })).status).toBe(401);
  });

  it('has_access follows the finished profile, and the profile shows no subscription panel', async () => {
    const user = await billingUser('self-hosted@example.com');
    const me = await callRoute(meRoute, { token: user.token });
    expect((me.body as { has_access: boolean }).has_access).toBe(true);
    expect(await subscriptionGrantsAccess(user.id)).toBe(false);
    expect(await loadSubscriptionPanel(user.id, new Request('http://localhost/profile'))).toBeNull();

    const fresh = await billingUser('unfinished-off@example.com');
    await (await getDb()).updateTable('users').set({ profile_finished: 0 }).where('id', '=', fresh.id).execute();
    expect(((await callRoute(meRoute, { token: fresh.token })).body as { has_access: boolean }).has_access).toBe(false);
    expect((await finishProfile(fresh.id, { full_name: 'Finished' })).has_access).toBe(true);
  });

  it('adds nothing to the CSP', () => {
    const csp = contentSecurityPolicy('n');
    expect(csp).not.toContain('frame-src');
    expect(csp).toContain("script-src 'self' 'nonce-n';");
  });
});
