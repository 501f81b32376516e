import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, methodNotAllowed } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { apiCompany, asOfOf, formatOf, respond } from '~/services/company/company-api.server';
import { companyDividends } from '~/services/company/company-pages.server';
import { dividendsTable } from '~/services/company/table-exports';

// GET /api/v1/dividends/{ticker|permaticker}?as_of=&format= => {company, as_of, date, metrics, history, annual, splits}.
export const loader = ({ params, request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.dividends.$id');
    return marketAnswer(request, async () => {
      const url = new URL(request.url);
      const format = formatOf(url);
      const asOf = asOfOf(url);
      const company = await apiCompany(params.id);
      const d = await companyDividends(company, asOf);
      return respond(
        format,
        { company, as_of: asOf, date: d.metrics.date, metrics: d.metrics.values, history: d.history, annual: d.annual, splits: d.splits },
        () => dividendsTable(d),
        `${company.ticker}-dividends.csv`,
      );
    });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
