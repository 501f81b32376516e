import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local Lemon Squeezy for tests (vitest and Playwright alike: no test-runner imports). It speaks
// the provider's documented wire format: JSON:API documents, `Accept`/`Content-Type:
// application/vnd.api+json`, `Authorization: Bearer <api key>`, JSON:API error documents, paged
// lists (`page[number]`, `page[size]`, `meta.page`), and webhook bodies signed with a hex
// HMAC-SHA256 in X-Signature. It refuses requests that break those rules as the real one does.
// It also serves a stand-in for Lemon.js and a checkout page, for the browser tests.

const JSON_API = 'application/vnd.api+json';

export type VariantAttributes = {
  name: string;
  price: number;
  interval: 'day' | 'week' | 'month' | 'year' | null;
  interval_count: number | null;
  is_subscription: boolean;
};

export type SubscriptionAttributes = Record<string, unknown> & {
  store_id: number;
  variant_id: number;
  status: string;
  user_email: string;
  updated_at: string;
};

export type RecordedRequest = { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: unknown };

export type LemonSqueezySimulator = {
  /** http://127.0.0.1:<port>, ready for BILLING_API_URL. */
  url: string;
  apiKey: string;
  storeId: string;
  currency: string;
  variants: Map<string, VariantAttributes>;
  subscriptions: Map<string, SubscriptionAttributes>;
  /** Checkouts created, with the request body that created each. */
  checkouts: { id: string; url: string; body: unknown }[];
  requests: RecordedRequest[];
  /** The next `times` requests whose path starts with `pathPrefix` answer `status`. */
  failNext(status: number, times: number, pathPrefix?: string): void;
  /** Creates or changes a subscription; returns its JSON:API resource (what webhooks carry). */
  putSubscription(id: string, attributes: Partial<SubscriptionAttributes>): SubscriptionResourceJson;
  resource(id: string): SubscriptionResourceJson;
  /** Back to the starting state: no subscriptions, checkouts, recorded requests or failures. */
  reset(): void;
  close(): Promise<void>;
};

export type SubscriptionResourceJson = {
  type: 'subscriptions';
  id: string;
  attributes: SubscriptionAttributes;
  relationships: Record<string, unknown>;
  links: { self: string };
};

export type SimulatorOptions = { apiKey?: string; storeId?: string; currency?: string; variants?: Record<string, VariantAttributes> };

function errorDocument(status: number, title: string, detail: string) {
  return { jsonapi: { version: '1.0' }, errors: [{ detail, status: String(status), title }] };
}

/** A subscription's attributes with every documented field, as the provider fills them. */
export function subscriptionAttributes(
  origin: string,
  id: string,
  over: Partial<SubscriptionAttributes> & { store_id: number; variant_id: number },
): SubscriptionAttributes {
  const now = new Date().toISOString().replace('Z', '000Z');
  return {
    customer_id: 9000 + Number(id),
    order_id: 7000 + Number(id),
    order_item_id: 6000 + Number(id),
    product_id: 500,
    product_name: 'Quarry Pro',
    variant_name: 'Monthly',
    user_name: 'Subscriber',
    user_email: 'subscriber@example.com',
    status: 'active',
    status_formatted: 'Active',
    card_brand: 'visa',
    card_last_four: '4242',
    pause: null,
    cancelled: false,
    trial_ends_at: null,
    billing_anchor: 12,
    first_subscription_item: {
      id: Number(id),
      subscription_id: Number(id),
      price_id: 1,
      quantity: 1,
      is_usage_based: false,
      created_at: now,
      updated_at: now,
    },
    urls: {
      update_payment_method: `${origin}/subscription/${id}/payment-details?expires=1&signature=abc`,
      customer_portal: `${origin}/billing?expires=1&user=${id}&signature=def`,
    },
    renews_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    ends_at: null,
    created_at: now,
    updated_at: now,
    test_mode: true,
    ...over,
  };
}

/** The body of a webhook delivery, exactly as it is signed and sent. */
export function webhookBody(eventName: string, data: unknown, customData?: Record<string, unknown>): string {
  return JSON.stringify({
    meta: {
      event_name: eventName,
      ...(customData ? { custom_data: customData } : {}),
      test_mode: true,
      webhook_id: 'b5b7d2e1-0c2a-4c7e-9a3f-3f1c2b0f9a11',
    },
    data,
  });
}

export function signWebhook(body: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const LEMON_JS = `// Stand-in for Lemon.js: the same globals, recording what it is asked to open.
window.createLemonSqueezy = function () {
  window.LemonSqueezy = { Url: { Open: function (url) { window.__lemonOpened = (window.__lemonOpened || []).concat([url]); document.body.setAttribute('data-lemon-opened', url); }, Close: function () {} } };
};
`;

export async function startLemonSqueezySimulator(options: SimulatorOptions = {}): Promise<LemonSqueezySimulator> {
  const apiKey = options.apiKey ?? 'test-api-key-' + randomUUID();
  const storeId = options.storeId ?? '4242';
  const currency = options.currency ?? 'USD';
  const variants = new Map(
    Object.entries(
      options.variants ?? { '101': { name: 'Monthly', price: 900, interval: 'month', interval_count: 1, is_subscription: true } },
    ),
  );
  const subscriptions = new Map<string, SubscriptionAttributes>();
  const checkouts: LemonSqueezySimulator['checkouts'] = [];
  const requests: RecordedRequest[] = [];
  const failures: { status: number; left: number; prefix: string }[] = [];
  let origin = '';

  const resource = (id: string): SubscriptionResourceJson => {
    const attributes = subscriptions.get(id);
    if (!attributes) throw new Error(`simulator: no subscription ${id}`);
    return {
      type: 'subscriptions',
      id,
      attributes,
      relationships: {
        store: { links: { related: `${origin}/v1/subscriptions/${id}/store` } },
        variant: { links: { related: `${origin}/v1/subscriptions/${id}/variant` } },
      },
      links: { self: `${origin}/v1/subscriptions/${id}` },
    };
  };

  function send(res: ServerResponse, status: number, body: unknown, type = JSON_API) {
    res.writeHead(status, { 'Content-Type': type });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const raw = method === 'POST' ? await readBody(req) : '';
    let body: unknown = undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }

    // Browser-facing pages: the overlay script and the hosted checkout / portal.
    if (path === '/js/lemon.js') return send(res, 200, LEMON_JS, 'text/javascript');
    if (path.startsWith('/checkout/custom/') || path.startsWith('/billing')) {
      return send(
        res,
        200,
        `<!doctype html><html lang="en"><title>Lemon Squeezy</title><h1>${path.startsWith('/billing') ? 'Customer portal' : 'Checkout'}</h1></html>`,
        'text/html',
      );
    }

    requests.push({ method, path: path + url.search, headers: req.headers, body });
    const failure = failures.find((f) => f.left > 0 && path.startsWith(f.prefix));
    if (failure) {
      failure.left -= 1;
      return send(res, failure.status, errorDocument(failure.status, 'Simulated failure', `Simulated ${failure.status}.`));
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(res, 401, errorDocument(401, 'Unauthorized', 'Unauthenticated.'));
    if (!(req.headers.accept ?? '').includes(JSON_API))
      return send(res, 406, errorDocument(406, 'Not Acceptable', `Send Accept: ${JSON_API}.`));
    if (method === 'POST' && !(req.headers['content-type'] ?? '').startsWith(JSON_API)) {
      return send(res, 415, errorDocument(415, 'Unsupported Media Type', `Send Content-Type: ${JSON_API}.`));
    }

    let m: RegExpExecArray | null;
    if (method === 'GET' && (m = /^\/v1\/stores\/(\d+)$/.exec(path))) {
      if (m[1] !== storeId) return send(res, 404, errorDocument(404, 'Not Found', 'Not Found'));
      return send(res, 200, {
        jsonapi: { version: '1.0' },
        links: { self: `${origin}${path}` },
        data: { type: 'stores', id: storeId, attributes: { name: 'Quarry Store', slug: 'quarry', currency, country: 'US' } },
      });
    }
    if (method === 'GET' && (m = /^\/v1\/variants\/(\d+)$/.exec(path))) {
      const v = variants.get(m[1]);
      if (!v) return send(res, 404, errorDocument(404, 'Not Found', 'Not Found'));
      return send(res, 200, {
        jsonapi: { version: '1.0' },
        links: { self: `${origin}${path}` },
        data: {
          type: 'variants',
          id: m[1],
          attributes: { product_id: 500, slug: 'v' + m[1], description: '', status: 'published', sort: 1, ...v },
        },
      });
    }
    if (method === 'GET' && (m = /^\/v1\/subscriptions\/(\d+)$/.exec(path))) {
      if (!subscriptions.has(m[1])) return send(res, 404, errorDocument(404, 'Not Found', 'Not Found'));
      return send(res, 200, { jsonapi: { version: '1.0' }, links: { self: `${origin}${path}` }, data: resource(m[1]) });
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      const store = url.searchParams.get('filter[store_id]');
      const size = Math.min(100, Math.max(1, Number(url.searchParams.get('page[size]') ?? '10')));
      const page = Math.max(1, Number(url.searchParams.get('page[number]') ?? '1'));
      const all = [...subscriptions.keys()]
        .filter((id) => store === null || String(subscriptions.get(id)!.store_id) === store)
        .sort((a, b) => Number(a) - Number(b));
      const lastPage = Math.max(1, Math.ceil(all.length / size));
      const slice = all.slice((page - 1) * size, page * size);
      const link = (n: number) => `${origin}/v1/subscriptions?page[number]=${n}&page[size]=${size}`;
      return send(res, 200, {
        jsonapi: { version: '1.0' },
        meta: {
          page: {
            currentPage: page,
            from: slice.length ? (page - 1) * size + 1 : null,
            lastPage,
            perPage: size,
            to: slice.length ? (page - 1) * size + slice.length : null,
            total: all.length,
          },
        },
        links: { first: link(1), last: link(lastPage), ...(page < lastPage ? { next: link(page + 1) } : {}) },
        data: slice.map(resource),
      });
    }
    if (method === 'POST' && path === '/v1/checkouts') {
      const data = (
        body as {
          data?: {
            type?: string;
            attributes?: Record<string, unknown>;
            relationships?: Record<string, { data?: { type?: string; id?: string } }>;
          };
        }
      )?.data;
      const store = data?.relationships?.store?.data;
      const variant = data?.relationships?.variant?.data;
      if (data?.type !== 'checkouts')
        return send(res, 422, errorDocument(422, 'Unprocessable Entity', 'The data.type field must be checkouts.'));
      if (store?.type !== 'stores' || store.id !== storeId)
        return send(res, 422, errorDocument(422, 'Unprocessable Entity', 'The store is invalid.'));
      if (variant?.type !== 'variants' || !variant.id || !variants.has(variant.id))
        return send(res, 422, errorDocument(422, 'Unprocessable Entity', 'The variant is invalid.'));
      const id = randomUUID();
      const checkoutUrl = `${origin}/checkout/custom/${id}?signature=${createHmac('sha256', apiKey).update(id).digest('hex')}`;
      checkouts.push({ id, url: checkoutUrl, body });
      const now = new Date().toISOString();
      return send(res, 201, {
        jsonapi: { version: '1.0' },
        links: { self: `${origin}/v1/checkouts/${id}` },
        data: {
          type: 'checkouts',
          id,
          attributes: {
            store_id: Number(storeId),
            variant_id: Number(variant.id),
            custom_price: null,
            ...(data.attributes ?? {}),
            expires_at: null,
            created_at: now,
            updated_at: now,
            test_mode: true,
            url: checkoutUrl,
          },
          relationships: {},
          links: { self: `${origin}/v1/checkouts/${id}` },
        },
      });
    }
    return send(res, 404, errorDocument(404, 'Not Found', 'Not Found'));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => send(res, 500, errorDocument(500, 'Server Error', String(e))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    apiKey,
    storeId,
    currency,
    variants,
    subscriptions,
    checkouts,
    requests,
    failNext(status, times, pathPrefix = '/v1/') {
      failures.push({ status, left: times, prefix: pathPrefix });
    },
    putSubscription(id, attributes) {
      const previous = subscriptions.get(id);
      const base =
        previous ?? subscriptionAttributes(origin, id, { store_id: Number(storeId), variant_id: Number([...variants.keys()][0]) });
      subscriptions.set(id, { ...base, ...attributes });
      return resource(id);
    },
    resource,
    reset() {
      subscriptions.clear();
      checkouts.length = 0;
      requests.length = 0;
      failures.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
