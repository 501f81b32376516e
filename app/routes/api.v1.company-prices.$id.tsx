import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, methodNotAllowed, zodFieldErrors } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { unprocessable } from '~/services/http/errors';
import { apiCompany, asOfOf, formatOf, respond } from '~/services/company/company-api.server';
import { CompanyPricesQuery } from '~/services/company/api-contract';
import { companyChart } from '~/services/company/company-pages.server';
import { pricesTable } from '~/services/company/table-exports';

// GET /api/v1/company-prices/{ticker|permaticker}?range=1M|6M|YTD|1Y|5Y|Max&adjusted=1|0&as_of=&format=
// => the chart tab's table: {company, range, adjusted, end, prices, sma50, sma200}.

export const loader = ({ params, request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.company-prices.$id');
    return marketAnswer(request, async () => {
      const url = new URL(request.url);
      const format = formatOf(url);
      const asOf = asOfOf(url);
      const q = CompanyPricesQuery.safeParse({
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
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
