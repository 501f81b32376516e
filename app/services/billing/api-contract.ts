import { z } from 'zod';
import { named, TimestampSchema, type ApiOperation, type Fits } from '../http/api-contract';
import { InitCheckoutBody } from './schemas';
import type { Plan, SubscriptionDetail, SubscriptionView } from './types';

// The billing part of the JSON API (api.v1.subscription.*, api.v1.variant.*, api.v1.order.*, the
// provider's webhook). Without billing configured every one of them answers 404.

export const PlanJson = named(
  'Plan',
  z
    .object({
      id: z.string(),
      name: z.string(),
      price: z.number().int().describe('In cents of currency'),
      currency: z.string(),
      price_formatted: z.string(),
      interval: z.enum(['day', 'week', 'month', 'year']).nullable().describe('null for a one-time purchase'),
      interval_count: z.number().int().nullable(),
      interval_label: z.string(),
    })
    .strict(),
);
const _plan: Fits<Plan, typeof PlanJson> = true;

export const SubscriptionJson = named(
  'Subscription',
  z
    .object({
      id: z.string(),
      status: z.string(),
      status_label: z.string(),
      variant_id: z.string(),
      plan_name: z.string().nullable(),
      cancelled: z.boolean(),
      trial_ends_at: TimestampSchema.nullable(),
      renews_at: TimestampSchema.nullable(),
      ends_at: TimestampSchema.nullable(),
      grants_access: z.boolean(),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
    })
    .strict(),
);
const _subscription: Fits<SubscriptionView, typeof SubscriptionJson> = true;

const SubscriptionDetailJson = SubscriptionJson.extend({
  urls: z.object({ customer_portal: z.string().nullable(), update_payment_method: z.string().nullable() }).strict(),
}).strict();
const _detail: Fits<SubscriptionDetail, typeof SubscriptionDetailJson> = true;

const ProviderId = z.string().regex(/^\d{1,20}$/);

export const BILLING_API: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/subscription/',
    summary: 'The caller’s subscriptions and the plans on offer',
    access: 'account',
    answers: {
      200: {
        description: 'Subscriptions and plans',
        json: z.object({ subscriptions: z.array(SubscriptionJson), plans: z.array(PlanJson) }).strict(),
      },
    },
    errors: [404, 502, 503],
  },
  {
    method: 'get',
    path: '/api/v1/subscription/{subscription_id}',
    summary: 'One of the caller’s subscriptions, read fresh from the provider, with its portal links',
    access: 'account',
    params: z.object({ subscription_id: ProviderId }),
    answers: { 200: { description: 'The subscription', json: SubscriptionDetailJson } },
    errors: [502, 503],
  },
  {
    method: 'get',
    path: '/api/v1/variant/{variant_id}',
    summary: 'A plan on offer (configured variants only)',
    access: 'account',
    params: z.object({ variant_id: ProviderId }),
    answers: { 200: { description: 'The plan', json: PlanJson } },
    errors: [502, 503],
  },
  {
    method: 'post',
    path: '/api/v1/order/init-checkout',
    summary: 'Create a hosted checkout for a plan',
    access: 'account',
    body: InitCheckoutBody,
    answers: { 200: { description: 'Send the browser to checkout_url', json: z.object({ checkout_url: z.string() }).strict() } },
    errors: [404, 409, 502, 503],
  },
  {
    method: 'post',
    path: '/api/v1/billing/webhook',
    summary: 'Payment provider webhook (X-Signature: hex HMAC-SHA256 of the raw body)',
    access: 'signature',
    answers: {
      200: { description: 'Received (applied, ignored or a replay alike)', json: z.object({ received: z.literal(true) }).strict() },
    },
    errors: [400, 404, 413],
  },
];
