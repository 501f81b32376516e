import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, methodNotAllowed } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { apiCompany, asOfOf, formatOf, respond } from '~/services/company/company-api.server';
import { companyOverview } from '~/services/company/company-pages.server';
import { filingsTable } from '~/services/company/table-exports';

// GET /api/v1/company-overview/{ticker|permaticker}?as_of=&format=json|csv
// => {company, as_of, date, metrics, prices, filings}; CSV: the filings table.
export const loader = ({ params, request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.company-overview.$id');
    return marketAnswer(request, async () => {
      const url = new URL(request.url);
      const format = formatOf(url);
      const asOf = asOfOf(url);
      const company = await apiCompany(params.id);
      const o = await companyOverview(company, asOf);
      return respond(
        format,
        { company, as_of: asOf, date: o.metrics.date, metrics: o.metrics.values, prices: o.prices, filings: o.filings },
        () => filingsTable(o.filings),
        `${company.ticker}-filings.csv`,
      );
    });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
