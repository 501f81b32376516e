import type { ActionFunctionArgs } from '@remix-run/node';
import { receiveWebhook } from '~/services/billing/webhook.server';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';

// POST /api/v1/billing/webhook: Lemon Squeezy's webhook deliveries. The caller is the payment
// provider, not a user, so there is no session or token to guard on: the HMAC signature of the
// raw body is the authentication (401 without a valid one). A malformed body is 400; anything
// verified is acknowledged with the same 200 whether it was applied, ignored or a replay, so the
// provider stops re-sending it.

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    await receiveWebhook(request);
    return jsonResponse({ received: true });
  });
