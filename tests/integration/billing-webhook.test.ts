import { expect, it } from 'vitest';
import * as meRoute from '~/routes/api.v1.auth.me';
import * as webhookRoute from '~/routes/api.v1.billing.webhook';
import { subscriptionGrantsAccess } from '~/services/auth/users.server';
import { getDb } from '~/services/db/db.server';
import { callRoute } from '../support/api';
import { billingUser, deliver, resetProviderPerRun, useLemonSqueezy, webhookBody } from '../support/billing';
import { forEachDatabase } from '../support/databases';
import { signWebhook } from '../support/lemonsqueezy';

// The webhook endpoint against real databases: signature checks on the raw bytes, malformed
// bodies, de-duplication of replays, and the access each subscription event leaves behind.

const { sim, env } = useLemonSqueezy();

const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function hasAccessNow(token: string): Promise<boolean> {
  const me = await callRoute(meRoute, { token, path: '/api/v1/auth/me' });
  expect(me.status).toBe(200);
  return (me.body as { has_access: boolean }).has_access;
}

async function subscriptionRow(id: string) {
  return (await getDb()).selectFrom('subscriptions').selectAll().where('provider_id', '=', id).executeTakeFirst();
}

async function eventRows() {
  return (await getDb()).selectFrom('billing_webhook_events').selectAll().orderBy('received_at').execute();
}

forEachDatabase(
  'billing webhook',
  () => {
    resetProviderPerRun(sim);

    it('accepts a signed subscription_created once: access granted, a replay changes nothing', async () => {
      const user = await billingUser('created@example.com');
      expect(await hasAccessNow(user.token)).toBe(false);
      const body = webhookBody(
        'subscription_created',
        sim().putSubscription('1', { user_email: 'someone-else@example.com', updated_at: at(-HOUR) }),
        { user_id: user.id },
      );

      const first = await deliver(body);
      expect([first.status, first.body]).toEqual([200, { received: true }]);
      expect(await hasAccessNow(user.token)).toBe(true);
      const stored = await subscriptionRow('1');
      expect(stored).toMatchObject({
        user_id: user.id,
        status: 'active',
        variant_id: '101',
        product_name: 'Quarry Pro',
        variant_name: 'Monthly',
        cancelled: 0,
      });

      const replay = await deliver(body);
      expect([replay.status, replay.body]).toEqual([first.status, first.body]);
      expect(await subscriptionRow('1')).toEqual(stored);
      const events = await eventRows();
      expect(events.map((e) => [e.event_name, e.outcome, e.subscription_id])).toEqual([['subscription_created', 'applied', '1']]);
    });

    it('refuses a tampered body or signature with 401 and changes nothing', async () => {
      const user = await billingUser('tampered@example.com');
      const body = webhookBody('subscription_created', sim().putSubscription('2', { user_email: user.email, updated_at: at(-HOUR) }), {
        user_id: user.id,
      });
      const good = signWebhook(body, 'whsec-test-0123456789');
      const flipped = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
      const forged = body.replace('"active"', '"on_trial"');
      for (const [raw, signature] of [
        [body, flipped],
        [forged, good],
        [body, signWebhook(body, 'another-secret')],
        [body, good.toUpperCase().slice(0, 40)],
        [body, 'sha256=' + good],
        [body, 'zz'.repeat(32)],
      ]) {
        const answer = await deliver(raw, { signature });
        expect([answer.status, answer.body]).toEqual([401, { detail: 'Invalid webhook signature.' }]);
      }
      expect(await subscriptionRow('2')).toBeUndefined();
      expect(await hasAccessNow(user.token)).toBe(false);
      expect(await eventRows()).toHaveLength(1);
    });

    it('refuses a delivery without a signature with 401', async () => {
      const body = webhookBody('subscription_created', sim().putSubscription('3', { updated_at: at(-HOUR) }));
      const answer = await deliver(body, { signature: null });
      expect([answer.status, answer.body]).toEqual([401, { detail: 'Invalid webhook signature.' }]);
      expect((await deliver(body, { signature: '' })).status).toBe(401);
    });

    it('answers 400 to signed bodies that are not events, and records none of them', async () => {
      const subscription = sim().putSubscription('4', { updated_at: at(-HOUR) });
      const cases: [string, RegExp][] = [
        ['{"meta": {"event_name": "subscription_created"', /not valid JSON/],
        ['', /not valid JSON/],
        ['[1, 2, 3]', /not a Lemon Squeezy event \(meta: Required\)|not a Lemon Squeezy event/],
        [JSON.stringify({ data: subscription }), /meta/],
        [JSON.stringify({ meta: { event_name: 'Robert"); DROP TABLE' }, data: subscription }), /meta\.event_name/],
        [
          webhookBody('subscription_updated', { ...subscription, attributes: { ...subscription.attributes, status: undefined } }),
          /subscription_updated event does not carry a subscription \(data\.attributes\.status/,
        ],
        [
          webhookBody('subscription_updated', { ...subscription, attributes: { ...subscription.attributes, updated_at: 'yesterday' } }),
          /attributes\.updated_at/,
        ],
        [webhookBody('subscription_updated', { ...subscription, type: 'orders' }), /data\.type/],
        [
          webhookBody('subscription_expired', {
            ...subscription,
            attributes: { ...subscription.attributes, urls: { customer_portal: 'javascript:alert(1)' } },
          }),
          /urls\.customer_portal/,
        ],
      ];
      for (const [body, detail] of cases) {
        const answer = await deliver(body);
        expect(answer.status, body).toBe(400);
        expect((answer.body as { detail: string }).detail).toMatch(detail);
      }
      const mismatched = await deliver(webhookBody('subscription_created', subscription), { eventName: 'subscription_expired' });
      expect([mismatched.status, mismatched.body]).toEqual([400, { detail: 'X-Event-Name does not match meta.event_name.' }]);
      expect(await subscriptionRow('4')).toBeUndefined();
      expect(await eventRows()).toHaveLength(1);
    });

    it('acknowledges unknown and non-subscription events with 200 and ignores them', async () => {
      const user = await billingUser('unknown@example.com');
      const subscription = sim().putSubscription('5', { user_email: user.email, updated_at: at(-HOUR) });
      for (const body of [
        webhookBody('subscription_teleported', subscription, { user_id: user.id }),
        webhookBody(
          'order_created',
          { type: 'orders', id: '77', attributes: { store_id: 4242, user_email: user.email, status: 'paid' } },
          { user_id: user.id },
        ),
        webhookBody('subscription_payment_success', {
          type: 'subscription-invoices',
          id: '88',
          attributes: { subscription_id: 5, status: 'paid' },
        }),
      ]) {
        const answer = await deliver(body);
        expect([answer.status, answer.body]).toEqual([200, { received: true }]);
      }
      expect(await subscriptionRow('5')).toBeUndefined();
      expect(await hasAccessNow(user.token)).toBe(false);
      expect((await eventRows()).slice(-3).map((e) => [e.event_name, e.outcome])).toEqual([
        ['subscription_teleported', 'ignored'],
        ['order_created', 'ignored'],
        ['subscription_payment_success', 'ignored'],
      ]);
    });

    it('subscription_cancelled keeps access until ends_at, then it is gone', async () => {
      const user = await billingUser('cancel@example.com');
      await deliver(webhookBody('subscription_created', sim().putSubscription('6', { updated_at: at(-2 * HOUR) }), { user_id: user.id }));
      const endsAt = at(10 * DAY);
      const cancelled = await deliver(
        webhookBody(
          'subscription_cancelled',
          sim().putSubscription('6', { status: 'cancelled', cancelled: true, ends_at: endsAt, updated_at: at(-HOUR) }),
          { user_id: user.id },
        ),
      );
      expect(cancelled.status).toBe(200);
      expect(await subscriptionRow('6')).toMatchObject({ status: 'cancelled', cancelled: 1, ends_at: endsAt });
      expect(await hasAccessNow(user.token)).toBe(true);
      expect(await subscriptionGrantsAccess(user.id, new Date(Date.parse(endsAt) - 1000))).toBe(true);
      expect(await subscriptionGrantsAccess(user.id, new Date(endsAt))).toBe(false);
      expect(await subscriptionGrantsAccess(user.id, new Date(Date.parse(endsAt) + DAY))).toBe(false);
    });

    it('subscription_expired removes access at once', async () => {
      const user = await billingUser('expired@example.com');
      await deliver(webhookBody('subscription_created', sim().putSubscription('7', { updated_at: at(-2 * HOUR) }), { user_id: user.id }));
      expect(await hasAccessNow(user.token)).toBe(true);
      await deliver(
        webhookBody('subscription_expired', sim().putSubscription('7', { status: 'expired', ends_at: at(-HOUR), updated_at: at(-HOUR) }), {
          user_id: user.id,
        }),
      );
      expect(await hasAccessNow(user.token)).toBe(false);
    });

    it('an older snapshot arriving late does not undo a newer one', async () => {
      const user = await billingUser('order@example.com');
      const older = webhookBody('subscription_updated', sim().putSubscription('8', { status: 'active', updated_at: at(-2 * HOUR) }), {
        user_id: user.id,
      });
      const newer = webhookBody(
        'subscription_expired',
        sim().putSubscription('8', { status: 'expired', ends_at: at(-HOUR), updated_at: at(-HOUR) }),
        { user_id: user.id },
      );
      expect((await deliver(newer)).status).toBe(200);
      expect((await deliver(older)).status).toBe(200);
      expect(await subscriptionRow('8')).toMatchObject({ status: 'expired' });
      expect(await hasAccessNow(user.token)).toBe(false);
      expect((await eventRows()).slice(-2).map((e) => e.outcome)).toEqual(['applied', 'stale']);
    });

    it('links by e-mail without custom data; acknowledges subscriptions of nobody and of other stores', async () => {
      const user = await billingUser('by-email@example.com');
      await deliver(
        webhookBody('subscription_created', sim().putSubscription('9', { user_email: 'BY-EMAIL@example.com', updated_at: at(-HOUR) })),
      );
      expect(await subscriptionRow('9')).toMatchObject({ user_id: user.id });
      expect(await hasAccessNow(user.token)).toBe(true);

      const nobody = await deliver(
        webhookBody('subscription_created', sim().putSubscription('10', { user_email: 'nobody@example.com', updated_at: at(-HOUR) }), {
          user_id: 'no-such-user',
        }),
      );
      expect(nobody.status).toBe(200);
      expect(await subscriptionRow('10')).toBeUndefined();

      const other = await billingUser('other-store@example.com');
      const foreign = await deliver(
        webhookBody('subscription_created', sim().putSubscription('11', { store_id: 1, updated_at: at(-HOUR) }), { user_id: other.id }),
      );
      expect(foreign.status).toBe(200);
      expect(await subscriptionRow('11')).toBeUndefined();
      expect(await hasAccessNow(other.token)).toBe(false);
      expect((await eventRows()).slice(-2).map((e) => e.outcome)).toEqual(['unlinked', 'foreign_store']);
    });

    it('concurrent deliveries of one body apply it once', async () => {
      const user = await billingUser('concurrent@example.com');
      const body = webhookBody('subscription_created', sim().putSubscription('12', { updated_at: at(-HOUR) }), { user_id: user.id });
      const answers = await Promise.all([deliver(body), deliver(body), deliver(body)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      const rows = (await eventRows()).filter((e) => e.subscription_id === '12');
      expect(rows.map((e) => e.outcome)).toEqual(['applied']);
      expect(await hasAccessNow(user.token)).toBe(true);
    });

    it('an admin override still wins, and an unfinished profile still needs finishing', async () => {
      const db = await getDb();
      const revoked = await billingUser('revoked@example.com');
      await db.updateTable('users').set({ access_override: 0 }).where('id', '=', revoked.id).execute();
      await deliver(webhookBody('subscription_created', sim().putSubscription('13', { updated_at: at(-HOUR) }), { user_id: revoked.id }));
      expect(await hasAccessNow(revoked.token)).toBe(false);

      const unfinished = await billingUser('unfinished@example.com');
      await db.updateTable('users').set({ profile_finished: 0 }).where('id', '=', unfinished.id).execute();
      await deliver(
        webhookBody('subscription_created', sim().putSubscription('14', { updated_at: at(-HOUR) }), { user_id: unfinished.id }),
      );
      expect(await hasAccessNow(unfinished.token)).toBe(false);
    });

    it('refuses bodies over the size limit with 413, and GET with 405', async () => {
      const big = webhookBody('subscription_created', { padding: 'x'.repeat(300 * 1024) });
      expect((await deliver(big)).status).toBe(413);
      expect(webhookRoute.loader().status).toBe(405);
    });

    it('deleting the account deletes its subscriptions', async () => {
      const user = await billingUser('delete-me@example.com');
      await deliver(webhookBody('subscription_created', sim().putSubscription('15', { updated_at: at(-HOUR) }), { user_id: user.id }));
      expect(await subscriptionRow('15')).toBeDefined();
      expect((await callRoute(meRoute, { token: user.token, method: 'DELETE', path: '/api/v1/auth/me' })).status).toBe(204);
      expect(await subscriptionRow('15')).toBeUndefined();
    });
  },
  { env },
);
