import { describe, expect, it } from 'vitest';
import { tempDirForTest } from '../../../tests/support/temp-dir';
import { ConfigError, loadConfig } from '../config.server';

// Billing is off by default and all-or-nothing: half a configuration stops start-up with a
// message naming what is missing.

const load = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: tempDirForTest('quarry-billing-config-'), ...env } as unknown as NodeJS.ProcessEnv);

const full = {
  BILLING_PROVIDER: 'lemonsqueezy',
  BILLING_API_KEY: 'key',
  BILLING_STORE_ID: '4242',
  BILLING_VARIANT_IDS: '101, 102,101',
  BILLING_WEBHOOK_SECRET: 'whsec-123',
};

describe('billing configuration', () => {
  it('is off when nothing is set', () => {
    const c = load({});
    expect(c.billingEnabled).toBe(false);
    expect(c.billing).toBeNull();
  });

  it('is on with every required variable, with the Lemon Squeezy defaults', () => {
    const c = load(full);
    expect(c.billingEnabled).toBe(true);
    expect(c.billing).toEqual({
      provider: 'lemonsqueezy',
      apiKey: 'key',
      storeId: '4242',
      variantIds: ['101', '102'],
      webhookSecret: 'whsec-123',
      apiUrl: 'https://api.lemonsqueezy.com',
      overlayScriptUrl: 'https://app.lemonsqueezy.com/js/lemon.js',
      checkoutOrigin: 'https://*.lemonsqueezy.com',
    });
  });

  it('names the missing variables when half configured', () => {
    expect(() => load({ BILLING_PROVIDER: 'lemonsqueezy', BILLING_API_KEY: 'key' })).toThrow(
      new ConfigError(
        'Billing is half configured: set BILLING_STORE_ID, BILLING_VARIANT_IDS, BILLING_WEBHOOK_SECRET too, or unset every BILLING_* variable to turn billing off.',
      ),
    );
    expect(() => load({ BILLING_WEBHOOK_SECRET: 'whsec-123' })).toThrow(
      /set BILLING_PROVIDER, BILLING_API_KEY, BILLING_STORE_ID, BILLING_VARIANT_IDS too/,
    );
  });

  it('refuses bad values with a clear message', () => {
    expect(() => load({ ...full, BILLING_PROVIDER: 'stripe' })).toThrow(/BILLING_PROVIDER "stripe" is not supported; use "lemonsqueezy"/);
    expect(() => load({ ...full, BILLING_STORE_ID: 'my-store' })).toThrow(/BILLING_STORE_ID "my-store" must be the numeric store id/);
    expect(() => load({ ...full, BILLING_VARIANT_IDS: '101,pro' })).toThrow(/"pro" is not one/);
    expect(() => load({ ...full, BILLING_VARIANT_IDS: ' , ' })).toThrow(/BILLING_VARIANT_IDS must be/);
    expect(() => load({ ...full, BILLING_WEBHOOK_SECRET: 'abc' })).toThrow(/at least 6 characters/);
    expect(() => load({ ...full, BILLING_API_URL: 'ftp://api.example.com' })).toThrow(/BILLING_API_URL must be an http\(s\) URL/);
    expect(() => load({ ...full, BILLING_OVERLAY_SCRIPT_URL: 'not a url' })).toThrow(/BILLING_OVERLAY_SCRIPT_URL "not a url" is not a URL/);
    expect(() => load({ ...full, BILLING_CHECKOUT_ORIGIN: "https://x.com; script-src 'unsafe-inline'" })).toThrow(
      /BILLING_CHECKOUT_ORIGIN/,
    );
  });
});
