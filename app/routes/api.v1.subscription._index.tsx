import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireAccount } from '~/services/auth/api.server';
import { billingOverview } from '~/services/billing/account.server';
import { requireBilling } from '~/services/billing/billing-config.server';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';

// GET /api/v1/subscription/ => {subscriptions: [...], plans: [...]}: the caller's subscriptions
// (status, renews/ends at, plan) and the plans on offer (name, price, interval).

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.subscription._index');
    requireBilling();
    return jsonResponse(await billingOverview(user.id));
  });

export const action = () => methodNotAllowed(['GET']);
