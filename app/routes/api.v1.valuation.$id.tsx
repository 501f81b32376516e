import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, methodNotAllowed } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { apiCompany, asOfOf, formatOf, respond } from '~/services/company/company-api.server';
import { valuationTable } from '~/services/company/table-exports';
import { companyValuation } from '~/services/company/valuation.server';

// GET /api/v1/valuation/{ticker|permaticker}?as_of=&format= => {company, as_of, sector, series: [{metric, points: [{date, company, sectorMedian}], current, fiveYearAverage, sectorMedian}]}.
export const loader = ({ params, request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.valuation.$id');
    return marketAnswer(request, async () => {
      const url = new URL(request.url);
      const format = formatOf(url);
      const asOf = asOfOf(url);
      const company = await apiCompany(params.id);
      const v = await companyValuation(company, asOf);
      return respond(
        format,
        { company, as_of: asOf, snapshot_date: v.asOf, sector: v.sector, series: v.series },
        () => valuationTable(v),
        `${company.ticker}-valuation.csv`,
      );
    });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
