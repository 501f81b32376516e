import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { getCompanyProfile } from '~/services/company/companies.server';

// GET /api/v1/companies/{ticker|permaticker} => the company profile (security, ticker history,
// latest price, recent filings). A ticker names its current holder, or its latest one.
// Unknown ids: 404 {"detail"}.

export const loader = ({ params, request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.companies.$id');
    return marketAnswer(request, async () => jsonResponse(await getCompanyProfile(params.id ?? '')));
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
