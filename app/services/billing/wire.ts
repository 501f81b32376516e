import { z } from 'zod';

// The Lemon Squeezy wire format (JSON:API), as far as Quarry reads it. Everything the provider
// sends passes through these schemas, so a surprising answer is a clear error, never a crash
// or a half-written row. Ids arrive as strings (data.id) or numbers (attributes.*_id): both
// become strings. Timestamps ("2023-01-24T12:43:48.000000Z") become ISO-8601 UTC with ms.

const id = z.union([z.string().regex(/^\d{1,20}$/), z.number().int().nonnegative()]).transform(String);

const timestamp = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'not a date-time')
  .transform((s) => new Date(s).toISOString());

const clipped = (max: number) => z.string().transform((s) => s.slice(0, max));

/** A link we send the browser to: only http(s), never javascript: or data:. */
const webUrl = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:$/.test(new URL(u).protocol), 'not an http(s) URL');

export const SubscriptionResource = z.object({
  type: z.literal('subscriptions'),
  id,
  attributes: z.object({
    store_id: id,
    customer_id: id.nullish(),
    variant_id: id,
    product_name: clipped(255).nullish(),
    variant_name: clipped(255).nullish(),
    user_email: clipped(320).nullish(),
    status: z.string().regex(/^[a-z_]{1,32}$/),
    cancelled: z.boolean().nullish(),
    pause: z
      .object({ mode: z.string().max(16) })
      .passthrough()
      .nullish(),
    trial_ends_at: timestamp.nullish(),
    renews_at: timestamp.nullish(),
    ends_at: timestamp.nullish(),
    created_at: timestamp.nullish(),
    updated_at: timestamp,
    urls: z.object({ customer_portal: webUrl.nullish(), update_payment_method: webUrl.nullish() }).passthrough().nullish(),
  }),
});
export type SubscriptionResource = z.infer<typeof SubscriptionResource>;

export const SubscriptionDocument = z.object({ data: SubscriptionResource });

export const SubscriptionListDocument = z.object({
  // Entries are checked one by one: one odd subscription must not hide all the others.
  data: z.array(z.unknown()),
  meta: z.object({ page: z.object({ currentPage: z.number().int(), lastPage: z.number().int() }).passthrough() }).passthrough(),
});

export const VariantDocument = z.object({
  data: z.object({
    type: z.literal('variants'),
    id,
    attributes: z.object({
      name: clipped(255),
      /** Cents. */
      price: z.number().int().nonnegative(),
      is_subscription: z.boolean().nullish(),
      interval: z.enum(['day', 'week', 'month', 'year']).nullish(),
      interval_count: z.number().int().positive().nullish(),
    }),
  }),
});

export const StoreDocument = z.object({
  data: z.object({
    type: z.literal('stores'),
    id,
    attributes: z.object({ name: clipped(255), currency: z.string().regex(/^[A-Z]{3}$/) }),
  }),
});

export const CheckoutDocument = z.object({
  data: z.object({ type: z.literal('checkouts'), id: z.string().min(1).max(64), attributes: z.object({ url: webUrl }) }),
});

/** JSON:API error document: {"errors": [{"detail", "status", "title"}]}. */
export const ErrorDocument = z.object({
  errors: z.array(z.object({ detail: z.string().optional(), title: z.string().optional() }).passthrough()).min(1),
});

export const WebhookEnvelope = z.object({
  meta: z.object({
    event_name: z.string().regex(/^[a-z_]{1,64}$/),
    custom_data: z.record(z.unknown()).nullish(),
  }),
  data: z.unknown(),
});
