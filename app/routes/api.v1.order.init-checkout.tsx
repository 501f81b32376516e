import type { ActionFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { requireBilling } from '~/services/billing/billing-config.server';
import { initCheckout } from '~/services/billing/checkout.server';
import { InitCheckoutBody } from '~/services/billing/schemas';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';

// POST /api/v1/order/init-checkout {variant_id} => {checkout_url}: the provider's hosted
// checkout for that plan, carrying the caller's user id.

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const { user } = await requireAccount(request, 'api.v1.order.init-checkout');
    requireBilling();
    const body = await readApiBody(request, InitCheckoutBody);
    return jsonResponse(await initCheckout(user, body.variant_id));
  });
