import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { handleApi, jsonResponse, methodNotAllowed, zodFieldErrors } from '~/services/http/api.server';
import { unprocessable } from '~/services/http/errors';
import { SEARCH_LIMIT_MAX, searchCompanies } from '~/services/company/companies.server';

// GET /api/v1/companies?query=&limit= => {query, results: [{permaticker, ticker, name, exchange,
// sector, industry, is_delisted, is_demo, match}]}, best match first (exact ticker first).

const QuerySchema = z.object({
  query: z.string().max(100, 'At most 100 characters.').default(''),
  limit: z.coerce.number().int('Must be a whole number.').min(1).max(SEARCH_LIMIT_MAX).default(20),
});

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const parsed = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw unprocessable('Invalid query parameters.', zodFieldErrors(parsed.error));
    const { query, limit } = parsed.data;
    return jsonResponse({ query, results: await searchCompanies(query, limit) });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
