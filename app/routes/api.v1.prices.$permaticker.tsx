import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, jsonResponse, methodNotAllowed, zodFieldErrors } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { notFound, unprocessable } from '~/services/http/errors';
import { PricesQuery } from '~/services/company/api-contract';
import { priceSeries } from '~/services/company/prices.server';

// GET /api/v1/prices/{permaticker}?from=&to=&adjusted= => {permaticker, ticker, adjusted, from, to,
// prices: [{date, open, high, low, close, volume, total_return_index}], actions: [...]}.
// adjusted (default true): split-adjusted prices; false: prices as traded.

export const loader = ({ params, request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.prices.$permaticker');
    return marketAnswer(request, async () => {
      const raw = params.permaticker ?? '';
      const permaticker = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(permaticker) || permaticker > 2_147_483_647) throw notFound(`Unknown security: ${raw}`);
      const parsed = PricesQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
      if (!parsed.success) throw unprocessable('Invalid query parameters.', zodFieldErrors(parsed.error));
      return jsonResponse(await priceSeries(permaticker, parsed.data));
    });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
