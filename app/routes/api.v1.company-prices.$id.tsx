import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { handleApi, methodNotAllowed, zodFieldErrors } from '~/services/http/api.server';
import { unprocessable } from '~/services/http/errors';
import { apiCompany, asOfOf, formatOf, respond } from '~/services/company/company-api.server';
import { companyChart, RANGES } from '~/services/company/company-pages.server';
import { pricesTable } from '~/services/company/table-exports';

// GET /api/v1/company-prices/{ticker|permaticker}?range=1M|6M|YTD|1Y|5Y|Max&adjusted=1|0&as_of=&format=
// => the chart tab's table: {company, range, adjusted, end, prices, sma50, sma200}.
const Query = z.object({ range: z.enum(RANGES).default('1Y'), adjusted: z.enum(['1', '0']).default('1') });

export const loader = ({ params, request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const url = new URL(request.url);
    const format = formatOf(url);
    const asOf = asOfOf(url);
    const q = Query.safeParse({
      range: url.searchParams.get('range') ?? undefined,
      adjusted: url.searchParams.get('adjusted') ?? undefined,
    });
    if (!q.success) throw unprocessable('Invalid query parameters.', zodFieldErrors(q.error));
    const company = await apiCompany(params.id);
    const chart = await companyChart(company, asOf, q.data.range, q.data.adjusted === '1');
    return respond(
      format,
      { company, as_of: asOf, range: q.data.range, adjusted: q.data.adjusted === '1', ...chart },
      () => pricesTable(chart),
      `${company.ticker}-prices-${q.data.range}.csv`,
    );
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
