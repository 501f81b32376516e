import { expect, it } from 'vitest';
import * as backtestsRoute from '~/routes/api.v1.backtests';
import * as initCheckoutRoute from '~/routes/api.v1.order.init-checkout';
import * as screenerRunRoute from '~/routes/api.v1.screener.run';
import * as screenersRoute from '~/routes/api.v1.screeners';
import * as subscriptionRoute from '~/routes/api.v1.subscription.$subscription_id';
import * as subscriptionsRoute from '~/routes/api.v1.subscription._index';
import * as variantRoute from '~/routes/api.v1.variant.$variant_id';
import { issueGuestToken } from '~/services/auth/tokens.server';
import { callRoute } from '../support/api';
import { billingUser, deliver, resetProviderPerRun, useLemonSqueezy, webhookBody } from '../support/billing';
import { forEachDatabase } from '../support/databases';

// The billing JSON API against the simulated provider: plans, the caller's
// subscriptions, and init-checkout with the provider's failures.

const { sim, env } = useLemonSqueezy({
  currency: 'EUR',
  variants: {
    '101': { name: 'Monthly', price: 900, interval: 'month', interval_count: 1, is_subscription: true },
    '102': { name: 'Quarterly', price: 2400, interval: 'month', interval_count: 3, is_subscription: true },
    // Sold in the store, but not offered by this instance.
    '999': { name: 'Lifetime', price: 49_900, interval: null, interval_count: null, is_subscription: false },
  },
  configured: ['102', '101'],
});

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

const checkout = (token: string | undefined, json: unknown) =>
  callRoute(initCheckoutRoute, { token, json, path: '/api/v1/order/init-checkout' });

forEachDatabase(
  'billing API',
  () => {
    resetProviderPerRun(sim);

    it('init-checkout returns the provider’s checkout URL, with the user id in the custom data', async () => {
      const user = await billingUser('checkout@example.com');
      const answer = await checkout(user.token, { variant_id: '101' });
      expect(answer.status).toBe(200);
      expect(sim().checkouts).toHaveLength(1);
      const created = sim().checkouts[0];
      expect(answer.body).toEqual({ checkout_url: created.url });
      expect(created.url).toMatch(new RegExp(`^${sim().url}/checkout/custom/[0-9a-f-]{36}\\?signature=[0-9a-f]{64}$`));
      expect(created.body).toMatchObject({
        data: {
          type: 'checkouts',
          attributes: {
            checkout_data: { email: 'checkout@example.com', name: 'Billing User', custom: { user_id: user.id } },
            product_options: { redirect_url: expect.stringMatching(/\/profile\?checkout=done$/), enabled_variants: [101] },
          },
          relationships: { store: { data: { type: 'stores', id: sim().storeId } }, variant: { data: { type: 'variants', id: '101' } } },
        },
      });
      const request = sim().requests.find((r) => r.path === '/v1/checkouts')!;
      expect(request.headers.authorization).toBe(`Bearer ${sim().apiKey}`);
      expect(request.headers.accept).toBe('application/vnd.api+json');
      expect(request.headers['content-type']).toBe('application/vnd.api+json');
      // A number is as good as a string; the same checkout can be asked for again.
      expect((await checkout(user.token, { variant_id: 102 })).status).toBe(200);
    });

    it('init-checkout refuses plans that are not offered and bad bodies with 422', async () => {
      const user = await billingUser('bad-checkout@example.com');
      const checkoutsBefore = sim().checkouts.length;
      for (const json of [
        { variant_id: '999' },
        { variant_id: '1e3' },
        { variant_id: '../v1/stores' },
        { variant_id: null },
        {},
        { variant_id: -1 },
        { variant_id: 101.5 },
        { variant_id: ['101'] },
      ]) {
        const answer = await checkout(user.token, json);
        expect(answer.status, JSON.stringify(json)).toBe(422);
        expect(answer.body).toMatchObject({ errors: { variant_id: ['Choose one of the plans offered.'] } });
      }
      expect((await checkout(user.token, [])).status).toBe(422);
      const text = await callRoute(initCheckoutRoute, {
        token: user.token,
        body: 'variant_id=101',
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(text.status).toBe(415);
      const broken = await callRoute(initCheckoutRoute, {
        token: user.token,
        body: '{"variant_id":',
        headers: { 'Content-Type': 'application/json' },
      });
      expect([broken.status, broken.body]).toEqual([400, { detail: 'Request body is not valid JSON.' }]);
      expect(sim().checkouts.length).toBe(checkoutsBefore);
    });

    it('without a subscription the API refuses what the pages refuse, and opens it once one is active', async () => {
      const user = await billingUser('unpaid@example.com');
      const screen = { rules: [{ kind: 'value', metric: 'price', op: '>', value: 0 }] };
      const attempts = () =>
        Promise.all([
          callRoute(backtestsRoute, {
            token: user.token,
            path: '/api/v1/backtests',
            json: { screen, params: {} },
            headers: { Prefer: 'respond-async' },
          }),
          callRoute(screenerRunRoute, { token: user.token, path: '/api/v1/screener/run', json: { screen } }),
          callRoute(screenersRoute, { token: user.token, path: '/api/v1/screeners', json: { name: 'Cheap', screen } }),
        ]);
      for (const answer of await attempts()) {
        expect(answer.status).toBe(403);
        expect((answer.body as { detail: string }).detail).toMatch(/subscribe/);
      }
      await deliver(webhookBody('subscription_created', sim().putSubscription('77', { updated_at: at(-HOUR) }), { user_id: user.id }));
      for (const answer of await attempts()) expect([401, 403]).not.toContain(answer.status);
    });

    it('init-checkout needs an account: 401 without a token, 403 for a guest', async () => {
      expect((await checkout(undefined, { variant_id: '101' })).status).toBe(401);
      expect((await checkout(issueGuestToken().access_token, { variant_id: '101' })).status).toBe(403);
      expect((await callRoute(initCheckoutRoute, { method: 'GET', path: '/api/v1/order/init-checkout' })).status).toBe(405);
    });

    it('retries a provider 5xx, then answers 503 with a clear detail', async () => {
      const user = await billingUser('provider-down@example.com');
      const before = sim().requests.length;
      sim().failNext(503, 3, '/v1/checkouts');
      const answer = await checkout(user.token, { variant_id: '101' });
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ detail: 'The payment provider is not answering (create the checkout). Try again in a minute.' });
      expect(answer.headers.get('Retry-After')).toBe('30');
      expect(
        sim()
          .requests.slice(before)
          .map((r) => r.path),
      ).toEqual(['/v1/checkouts', '/v1/checkouts', '/v1/checkouts']);

      sim().failNext(500, 1, '/v1/checkouts');
      const healed = await checkout(user.token, { variant_id: '101' });
      expect(healed.status).toBe(200);
      expect(healed.body).toEqual({ checkout_url: sim().checkouts.at(-1)!.url });
    });

    it('does not retry a provider 4xx, and answers 502 saying what the provider refused', async () => {
      const user = await billingUser('provider-refuses@example.com');
      const before = sim().requests.length;
      sim().failNext(422, 1, '/v1/checkouts');
      const answer = await checkout(user.token, { variant_id: '101' });
      expect([answer.status, answer.body]).toEqual([
        502,
        { detail: 'The payment provider refused to create the checkout (HTTP 422: Simulated 422.).' },
      ]);
      expect(sim().requests.length - before).toBe(1);
    });

    it('init-checkout refuses a second subscription with 409', async () => {
      const user = await billingUser('subscribed@example.com');
      await deliver(webhookBody('subscription_created', sim().putSubscription('31', { updated_at: at(-HOUR) }), { user_id: user.id }));
      const answer = await checkout(user.token, { variant_id: '102' });
      expect([answer.status, answer.body]).toEqual([
        409,
        { detail: 'You already have an active subscription. Manage it from your profile.' },
      ]);
    });

    it('lists the caller’s subscriptions and the plans with name, price and interval', async () => {
      const user = await billingUser('list@example.com');
      const other = await billingUser('list-other@example.com');
      await deliver(
        webhookBody(
          'subscription_created',
          sim().putSubscription('41', {
            variant_id: 102,
            variant_name: 'Quarterly',
            renews_at: '2031-01-02T03:04:05.000000Z',
            updated_at: at(-HOUR),
          }),
          { user_id: user.id },
        ),
      );
      await deliver(webhookBody('subscription_created', sim().putSubscription('42', { updated_at: at(-HOUR) }), { user_id: other.id }));

      const answer = await callRoute(subscriptionsRoute, { token: user.token, path: '/api/v1/subscription/' });
      expect(answer.status).toBe(200);
      const body = answer.body as { subscriptions: unknown[]; plans: unknown[] };
      expect(body.subscriptions).toEqual([
        {
          id: '41',
          status: 'active',
          status_label: 'Active',
          variant_id: '102',
          plan_name: 'Quarry Pro – Quarterly',
          cancelled: false,
          trial_ends_at: null,
          renews_at: '2031-01-02T03:04:05.000Z',
          ends_at: null,
          grants_access: true,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          updated_at: expect.stringMatching(/Z$/),
        },
      ]);
      expect(body.plans).toEqual([
        {
          id: '102',
          name: 'Quarterly',
          price: 2400,
          currency: 'EUR',
          price_formatted: '€24.00',
          interval: 'month',
          interval_count: 3,
          interval_label: 'every 3 months',
        },
        {
          id: '101',
          name: 'Monthly',
          price: 900,
          currency: 'EUR',
          price_formatted: '€9.00',
          interval: 'month',
          interval_count: 1,
          interval_label: 'per month',
        },
      ]);
    });

    it('reads one own subscription fresh from the provider, with its portal links; others’ ids are 404', async () => {
      const user = await billingUser('detail@example.com');
      const other = await billingUser('detail-other@example.com');
      await deliver(webhookBody('subscription_created', sim().putSubscription('51', { updated_at: at(-2 * HOUR) }), { user_id: user.id }));
      await deliver(webhookBody('subscription_created', sim().putSubscription('52', { updated_at: at(-2 * HOUR) }), { user_id: other.id }));
      // The provider moved on (a webhook got lost): the read shows and stores the new state.
      sim().putSubscription('51', { status: 'cancelled', cancelled: true, ends_at: at(5 * 24 * HOUR), updated_at: at(-HOUR) });

      const answer = await callRoute(subscriptionRoute, {
        token: user.token,
        params: { subscription_id: '51' },
        path: '/api/v1/subscription/51',
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        id: '51',
        status: 'cancelled',
        grants_access: true,
        urls: {
          customer_portal: `${sim().url}/billing?expires=1&user=51&signature=def`,
          update_payment_method: expect.stringContaining('/subscription/51/payment-details'),
        },
      });
      const list = await callRoute(subscriptionsRoute, { token: user.token });
      expect((list.body as { subscriptions: { status: string }[] }).subscriptions[0].status).toBe('cancelled');

      for (const id of ['52', '999999', 'abc', '51; DROP TABLE subscriptions', '']) {
        const foreign = await callRoute(subscriptionRoute, { token: user.token, params: { subscription_id: id } });
        expect([id, foreign.status, foreign.body]).toEqual([id, 404, { detail: 'Subscription not found.' }]);
      }
      expect(sim().requests.filter((r) => r.path === '/v1/subscriptions/52')).toHaveLength(0);
    });

    it('serves configured variants only; other ids are 404 without asking the provider', async () => {
      const user = await billingUser('variant@example.com');
      const plan = await callRoute(variantRoute, { token: user.token, params: { variant_id: '101' } });
      expect([plan.status, plan.body]).toEqual([
        200,
        {
          id: '101',
          name: 'Monthly',
          price: 900,
          currency: 'EUR',
          price_formatted: '€9.00',
          interval: 'month',
          interval_count: 1,
          interval_label: 'per month',
        },
      ]);
      const before = sim().requests.length;
      for (const id of ['999', '12345', 'monthly', '101.5']) {
        const answer = await callRoute(variantRoute, { token: user.token, params: { variant_id: id } });
        expect([id, answer.status, answer.body]).toEqual([id, 404, { detail: 'Plan not found.' }]);
      }
      expect(sim().requests.length).toBe(before);
      expect((await callRoute(variantRoute, { params: { variant_id: '101' } })).status).toBe(401);
    });
  },
  { env },
);
