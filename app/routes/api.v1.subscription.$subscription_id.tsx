import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireAccount } from '~/services/auth/api.server';
import { subscriptionDetail } from '~/services/billing/account.server';
import { requireBilling } from '~/services/billing/billing-config.server';
import { ProviderIdParam } from '~/services/billing/schemas';
import { SUBSCRIPTION_NOT_FOUND_DETAIL } from '~/services/billing/subscriptions.server';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { notFound } from '~/services/http/errors';

// GET /api/v1/subscription/{subscription_id} => one of the caller's subscriptions, read fresh
// from the provider, with its customer portal links. Another account's id is 404.

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.subscription.$subscription_id');
    requireBilling();
    const id = ProviderIdParam.safeParse(params.subscription_id);
    if (!id.success) throw notFound(SUBSCRIPTION_NOT_FOUND_DETAIL);
    return jsonResponse(await subscriptionDetail(user.id, id.data));
  });

export const action = () => methodNotAllowed(['GET']);
