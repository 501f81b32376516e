import { expect, it } from 'vitest';
import * as profileRoute from '~/routes/_app.profile';
import * as subscriptionsRoute from '~/routes/api.v1.subscription._index';
import * as portalRoute from '~/routes/profile.billing-portal.$subscription_id';
import * as checkoutRoute from '~/routes/profile.checkout';
import { commitSession, getSession, setSignedIn } from '~/services/auth/session.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import type { SubscriptionPanelData } from '~/services/billing/types';
import { contentSecurityPolicy } from '~/services/http/security-headers.server';
import { callRoute } from '../support/api';
import { billingUser, deliver, resetProviderPerRun, useLemonSqueezy, webhookBody } from '../support/billing';
import { forEachDatabase } from '../support/databases';

// The profile page's subscription panel and its two routes, with session cookies as a browser
// sends them: the Subscribe form (302 to the hosted checkout without JavaScript, JSON for the
// overlay with it) and "Manage subscription" (302 to the provider's customer portal).

const { sim, env } = useLemonSqueezy({
  variants: {
    '101': { name: 'Monthly', price: 900, interval: 'month', interval_count: 1, is_subscription: true },
    '102': { name: 'Yearly', price: 9000, interval: 'year', interval_count: 1, is_subscription: true },
  },
});

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

type Fn = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown;
type Outcome = { status: number; location: string | null; value: unknown; text: string; cookie: string | null };

async function call(
  fn: unknown,
  path: string,
  cookie: string,
  init: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string>; params?: Record<string, string> } = {},
): Promise<Outcome> {
  const headers = new Headers({ Cookie: cookie, ...init.headers });
  let body: string | undefined;
  if (init.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(init.form).toString();
  } else if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    headers.set('Accept', 'application/json');
    body = JSON.stringify(init.json);
  }
  if (body !== undefined && !headers.has('Origin')) headers.set('Origin', 'http://localhost');
  const request = new Request(`http://localhost${path}`, { method: body !== undefined ? 'POST' : 'GET', headers, body });
  try {
    const value = await (fn as Fn)({ request, params: init.params ?? {}, context: {} });
    if (value instanceof Response)
      return {
        status: value.status,
        location: value.headers.get('Location'),
        value: null,
        text: await value.text(),
        cookie: value.headers.get('Set-Cookie'),
      };
    return { status: 200, location: null, value, text: '', cookie: null };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { status: thrown.status, location: thrown.headers.get('Location'), value: null, text: await thrown.text(), cookie: null };
  }
}

async function signIn(email: string): Promise<{ cookie: string; id: string }> {
  const user = await billingUser(email);
  const session = await getSession(new Request('http://localhost/'));
  setSignedIn(session, await issueUserToken(user.id), { full_name: 'Billing User', profile_picture: null });
  return { cookie: (await commitSession(session)).split(';')[0], id: user.id };
}

/** The modal a redirect flashed, as the next page would show it. */
async function flashedModal(setCookie: string | null): Promise<unknown> {
  const session = await getSession(new Request('http://localhost/', { headers: { Cookie: (setCookie ?? '').split(';')[0] } }));
  return session.get('modal');
}

forEachDatabase(
  'billing on the profile page',
  () => {
    resetProviderPerRun(sim);

    it('shows the plans to a user without access, who can reach the Subscribe route', async () => {
      const { cookie } = await signIn('panel@example.com');
      const page = await call(profileRoute.loader, '/profile', cookie);
      expect(page.status).toBe(200);
      const panel = (page.value as { billing: SubscriptionPanelData }).billing;
      expect(panel).toEqual({
        subscriptions: [],
        plans: [
          expect.objectContaining({ id: '101', name: 'Monthly', price_formatted: '$9.00', interval_label: 'per month' }),
          expect.objectContaining({ id: '102', name: 'Yearly', price_formatted: '$90.00', interval_label: 'per year' }),
        ],
        plansError: null,
        subscribed: false,
        overlayScriptUrl: `${sim().url}/js/lemon.js`,
        awaitingConfirmation: false,
      });

      const noJs = await call(checkoutRoute.action, '/profile/checkout', cookie, { form: { variant_id: '102' } });
      expect(noJs.status).toBe(302);
      expect(noJs.location).toBe(sim().checkouts.at(-1)!.url);

      const withJs = await call(checkoutRoute.action, '/profile/checkout', cookie, { json: { variant_id: '101' } });
      expect(withJs.status).toBe(200);
      expect(JSON.parse(withJs.text)).toEqual({ checkout_url: sim().checkouts.at(-1)!.url });
      expect(sim().checkouts.at(-1)!.body).toMatchObject({ data: { relationships: { variant: { data: { id: '101' } } } } });

      const back = await call(profileRoute.loader, '/profile?checkout=done', cookie);
      expect((back.value as { billing: SubscriptionPanelData }).billing.awaitingConfirmation).toBe(true);
      expect((await call(checkoutRoute.loader, '/profile/checkout', cookie)).location).toBe('/profile');
    });

    it('sends checkout failures back to the page: a dialog without JavaScript, {detail} with it', async () => {
      const { cookie } = await signIn('checkout-fails@example.com');
      const bad = await call(checkoutRoute.action, '/profile/checkout', cookie, { form: { variant_id: '777' } });
      expect([bad.status, bad.location]).toEqual([302, '/profile']);
      expect(await flashedModal(bad.cookie)).toEqual({
        kind: 'error',
        title: 'The checkout could not be opened',
        error: { detail: 'Choose one of the plans offered.' },
      });

      sim().failNext(502, 3, '/v1/checkouts');
      const down = await call(checkoutRoute.action, '/profile/checkout', cookie, { json: { variant_id: '101' } });
      expect(down.status).toBe(503);
      expect(JSON.parse(down.text)).toEqual({
        detail: 'The payment provider is not answering (create the checkout). Try again in a minute.',
      });

      const foreign = await call(checkoutRoute.action, '/profile/checkout', cookie, {
        form: { variant_id: '101' },
        headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      });
      expect(foreign.status).toBe(403);
      const guest = await call(checkoutRoute.action, '/profile/checkout', '', { form: { variant_id: '101' } });
      expect(guest.status).toBe(302);
      expect(guest.location).not.toContain('lemon');
    });

    it('lists the subscription with its dates and sends "Manage subscription" to the provider’s portal', async () => {
      const { cookie, id } = await signIn('manage@example.com');
      const other = await billingUser('manage-other@example.com');
      await deliver(
        webhookBody(
          'subscription_created',
          sim().putSubscription('81', { renews_at: '2031-05-06T00:00:00.000000Z', updated_at: at(-HOUR) }),
          { user_id: id },
        ),
      );
      await deliver(webhookBody('subscription_created', sim().putSubscription('82', { updated_at: at(-HOUR) }), { user_id: other.id }));

      const page = await call(profileRoute.loader, '/profile', cookie);
      const panel = (page.value as { billing: SubscriptionPanelData }).billing;
      expect(panel.subscribed).toBe(true);
      expect(panel.plans).toEqual([]);
      expect(panel.subscriptions).toEqual([
        expect.objectContaining({ id: '81', status_label: 'Active', renews_at: '2031-05-06T00:00:00.000Z', grants_access: true }),
      ]);

      const portal = await call(portalRoute.loader, '/profile/billing-portal/81', cookie, { params: { subscription_id: '81' } });
      expect([portal.status, portal.location]).toEqual([302, `${sim().url}/billing?expires=1&user=81&signature=def`]);

      for (const foreignId of ['82', '0', 'x']) {
        const foreign = await call(portalRoute.loader, `/profile/billing-portal/${foreignId}`, cookie, {
          params: { subscription_id: foreignId },
        });
        expect([foreign.status, foreign.text]).toEqual([404, 'Subscription not found.']);
      }

      sim().failNext(500, 3, '/v1/subscriptions/81');
      const down = await call(portalRoute.loader, '/profile/billing-portal/81', cookie, { params: { subscription_id: '81' } });
      expect([down.status, down.location]).toEqual([302, '/profile']);
      expect(await flashedModal(down.cookie)).toMatchObject({ kind: 'error', error: { detail: expect.stringContaining('not answering') } });
    });

    it('allows exactly the overlay script’s origin and the checkout frames in the CSP', () => {
      const csp = contentSecurityPolicy('abc');
      expect(csp).toContain(`script-src 'self' 'nonce-abc' ${sim().url}`);
      expect(csp).toContain(`frame-src ${sim().url}`);
    });
  },
  { env },
);

// A provider that is down from the first request (nothing cached): the page still works.
const down = useLemonSqueezy();

forEachDatabase(
  'billing with the provider down',
  () => {
    it('shows the profile page with the reason instead of the plans; the API answers 503', async () => {
      down.sim().failNext(503, 1000);
      const { cookie } = await signIn('plans-down@example.com');
      const answer = await call(profileRoute.loader, '/profile', cookie);
      expect(answer.status).toBe(200);
      const panel = (answer.value as { billing: SubscriptionPanelData }).billing;
      expect(panel.plans).toEqual([]);
      expect(panel.plansError).toBe(
        'The plans could not be loaded: The payment provider is not answering (read the store). Try again in a minute.',
      );
      const api = await callRoute(subscriptionsRoute, { token: (await billingUser('api-down@example.com')).token });
      expect(api.status).toBe(503);
      expect(api.body).toEqual({ detail: expect.stringContaining('The payment provider is not answering') });
    });
  },
  { env: down.env },
);
