import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireAccount } from '~/services/auth/api.server';
import { requireBilling } from '~/services/billing/billing-config.server';
import { getPlan, PLAN_NOT_FOUND_DETAIL } from '~/services/billing/plans.server';
import { ProviderIdParam } from '~/services/billing/schemas';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { notFound } from '~/services/http/errors';

// GET /api/v1/variant/{variant_id} => a plan on offer {id, name, price, currency, interval, …}.
// Only the configured variants exist here; any other id is 404.

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAccount(request, 'api.v1.variant.$variant_id');
    requireBilling();
    const id = ProviderIdParam.safeParse(params.variant_id);
    if (!id.success) throw notFound(PLAN_NOT_FOUND_DETAIL);
    return jsonResponse(await getPlan(id.data));
  });

export const action = () => methodNotAllowed(['GET']);
