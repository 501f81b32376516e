import type { z, ZodTypeAny } from 'zod';
import type { BillingConfig } from '../config.server';
import { DomainError } from '../http/errors';
import { requireBilling } from './billing-config.server';
import { fetchWithRetry, HttpError, RETRY_STATUSES } from '../http/retrying-fetch';
import {
  CheckoutDocument,
  ErrorDocument,
  StoreDocument,
  SubscriptionDocument,
  SubscriptionListDocument,
  VariantDocument,
  type SubscriptionResource,
} from './wire';

// The Lemon Squeezy HTTP API (JSON:API over HTTPS, bearer API key). Every call goes through the
// one retrying fetch (../http/retrying-fetch.ts) with a per-attempt timeout. Failures become
// ProviderErrors: 503 when the provider is unavailable (network, timeout, 5xx, 429 after the retries), 502 when
// it refused or answered nonsense; the provider's own status is kept for callers that care.

const JSON_API = 'application/vnd.api+json';
const ATTEMPT_TIMEOUT_MS = 15_000;
const PAGE_SIZE = 100;

export class ProviderError extends DomainError {
  override name = 'ProviderError';
  constructor(
    status: 502 | 503,
    detail: string,
    /** The provider's HTTP status; null when it never answered or answered nonsense. */
    readonly providerStatus: number | null,
  ) {
    super(status, detail, undefined, status === 503 ? { 'Retry-After': '30' } : undefined);
  }
}

const timedFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });

function providerDetail(data: unknown): string | null {
  const parsed = ErrorDocument.safeParse(data);
  if (!parsed.success) return null;
  const first = parsed.data.errors[0];
  return (first.detail ?? first.title ?? '').slice(0, 200) || null;
}

function failure(what: string, error: unknown): ProviderError {
  if (error instanceof HttpError && error.status !== null && !RETRY_STATUSES.has(error.status) && error.status < 500) {
    const said = providerDetail(error.data);
    return new ProviderError(
      502,
      `The payment provider refused to ${what} (HTTP ${error.status}${said ? `: ${said}` : ''}).`,
      error.status,
    );
  }
  const status = error instanceof HttpError ? error.status : null;
  return new ProviderError(503, `The payment provider is not answering (${what}). Try again in a minute.`, status);
}

export type LemonSqueezyClient = ReturnType<typeof lemonSqueezyClient>;

export function lemonSqueezyClient(billing: BillingConfig, fetcher: typeof fetch = timedFetch) {
  async function call<S extends ZodTypeAny>(what: string, path: string, schema: S, init: RequestInit = {}): Promise<z.infer<S>> {
    const headers = new Headers(init.headers);
    headers.set('Accept', JSON_API);
    headers.set('Authorization', `Bearer ${billing.apiKey}`);
    if (init.body !== undefined) headers.set('Content-Type', JSON_API);
    let text: string;
    try {
      const response = await fetchWithRetry(`${billing.apiUrl}${path}`, { ...init, headers }, { fetcher });
      text = await response.text();
    } catch (e) {
      throw failure(what, e);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      console.warn(`[billing] unexpected answer to ${init.method ?? 'GET'} ${path}: ${issue.path.join('.')}: ${issue.message}`);
      throw new ProviderError(502, `The payment provider sent an answer Quarry does not understand (${what}).`, null);
    }
    return parsed.data as z.infer<S>;
  }

  return {
    getStore: () => call('read the store', `/v1/stores/${billing.storeId}`, StoreDocument).then((d) => d.data.attributes),

    getVariant: (variantId: string) =>
      call('read the plan', `/v1/variants/${encodeURIComponent(variantId)}`, VariantDocument).then((d) => d.data),

    getSubscription: (id: string): Promise<SubscriptionResource> =>
      call('read the subscription', `/v1/subscriptions/${encodeURIComponent(id)}`, SubscriptionDocument).then((d) => d.data),

    /** One page of the store's subscriptions; entries are left raw for the caller to check one by one. */
    listSubscriptions: async (page: number) => {
      const query = new URLSearchParams({
        'filter[store_id]': billing.storeId,
        'page[number]': String(page),
        'page[size]': String(PAGE_SIZE),
      });
      const d = await call('list the subscriptions', `/v1/subscriptions?${query}`, SubscriptionListDocument);
      return { items: d.data, currentPage: d.meta.page.currentPage, lastPage: d.meta.page.lastPage };
    },

    createCheckout: async (input: {
      variantId: string;
      userId: string;
      email: string;
      name: string;
      redirectUrl: string;
    }): Promise<string> => {
      const body = {
        data: {
          type: 'checkouts',
          attributes: {
            checkout_data: { email: input.email, name: input.name, custom: { user_id: input.userId } },
            product_options: { redirect_url: input.redirectUrl, enabled_variants: [Number(input.variantId)] },
          },
          relationships: {
            store: { data: { type: 'stores', id: billing.storeId } },
            variant: { data: { type: 'variants', id: input.variantId } },
          },
        },
      };
      const d = await call('create the checkout', '/v1/checkouts', CheckoutDocument, { method: 'POST', body: JSON.stringify(body) });
      return d.data.attributes.url;
    },
  };
}

/** The client for the configured provider; 404 (billing off) when there is none. */
export function providerClient(): LemonSqueezyClient {
  return lemonSqueezyClient(requireBilling());
}
