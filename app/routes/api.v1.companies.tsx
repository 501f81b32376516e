import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, jsonResponse, methodNotAllowed, zodFieldErrors } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { unprocessable } from '~/services/http/errors';
import { CompaniesQuery } from '~/services/company/api-contract';
import { searchCompanies } from '~/services/company/companies.server';

// GET /api/v1/companies?query=&limit= => {query, results: [{permaticker, ticker, name, exchange,
// sector, industry, is_delisted, is_demo, match}]}, best match first (exact ticker first).

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.companies');
    return marketAnswer(request, async () => {
      const parsed = CompaniesQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
      if (!parsed.success) throw unprocessable('Invalid query parameters.', zodFieldErrors(parsed.error));
      const { query, limit } = parsed.data;
      return jsonResponse({ query, results: await searchCompanies(query, limit) });
    });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
