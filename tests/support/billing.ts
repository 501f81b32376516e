import { afterAll, beforeAll } from 'vitest';
import * as webhookRoute from '~/routes/api.v1.billing.webhook';
import { issueUserToken } from '~/services/auth/tokens.server';
import { insertUser } from '~/services/auth/users.server';
import { callRoute, type ApiAnswer } from './api';
import { signWebhook, startLemonSqueezySimulator, webhookBody, type LemonSqueezySimulator, type SimulatorOptions } from './lemonsqueezy';

// Billing suites: one simulated Lemon Squeezy per test file, and the BILLING_* environment that
// points the app at it (handed to forEachDatabase, which applies it per database run).

export const WEBHOOK_SECRET = 'whsec-test-0123456789';

/** `configured`: the variant ids the app offers (default: every variant of the simulated store). */
/** Call inside a forEachDatabase body: each database run starts with an empty provider. */
export function resetProviderPerRun(sim: () => LemonSqueezySimulator): void {
  beforeAll(() => sim().reset());
}

export function useLemonSqueezy(options: SimulatorOptions & { configured?: string[] } = {}): {
  sim: () => LemonSqueezySimulator;
  env: Record<string, string | undefined>;
} {
  let sim: LemonSqueezySimulator | undefined;
  // Filled before the suites' own beforeAll hooks read it (file-level hooks run first).
  const env: Record<string, string | undefined> = {};
  beforeAll(async () => {
    sim = await startLemonSqueezySimulator(options);
    Object.assign(env, {
      BILLING_PROVIDER: 'lemonsqueezy',
      BILLING_API_KEY: sim.apiKey,
      BILLING_STORE_ID: sim.storeId,
      BILLING_VARIANT_IDS: (options.configured ?? [...sim.variants.keys()]).join(','),
      BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BILLING_API_URL: sim.url,
      BILLING_OVERLAY_SCRIPT_URL: `${sim.url}/js/lemon.js`,
      BILLING_CHECKOUT_ORIGIN: sim.url,
    });
  });
  afterAll(async () => {
    await sim?.close();
  });
  return {
    sim: () => {
      if (!sim) throw new Error('the simulator is not started yet');
      return sim;
    },
    env,
  };
}

/** An account with a finished profile and no admin override: billing decides its access. */
export async function billingUser(email: string): Promise<{ id: string; token: string; email: string }> {
  const row = await insertUser({ email, full_name: 'Billing User', password_hash: null, profile_finished: true });
  return { id: row.id, token: (await issueUserToken(row.id)).access_token, email };
}

/** Delivers a webhook as Lemon Squeezy does; `signature: null` leaves the header out. */
export function deliver(body: string, opts: { signature?: string | null; eventName?: string } = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const signature = opts.signature === undefined ? signWebhook(body, WEBHOOK_SECRET) : opts.signature;
  if (signature !== null) headers['X-Signature'] = signature;
  let name = opts.eventName;
  if (name === undefined) {
    try {
      name = (JSON.parse(body) as { meta?: { event_name?: string } })?.meta?.event_name;
    } catch {
      name = undefined; // a malformed body on purpose: no header either
    }
  }
  if (name) headers['X-Event-Name'] = name;
  return callRoute(webhookRoute, { method: 'POST', path: '/api/v1/billing/webhook', body, headers });
}

export { webhookBody };
