import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, methodNotAllowed, zodFieldErrors } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { unprocessable } from '~/services/http/errors';
import { apiCompany, asOfOf, formatOf, respond } from '~/services/company/company-api.server';
import { companyFinancials } from '~/services/company/company-pages.server';
import { FinancialsQuery } from '~/services/company/api-contract';
import { statementTable } from '~/services/company/table-exports';

// GET /api/v1/financials/{ticker|permaticker}?statement=income|balance|cash_flow&period=annual|quarterly|ttm&as_of=&format=
// => {company, as_of, statement: {columns, lines: [{id, label, unit, cells: [{value, filed, accession, form, url, derived}]}], growth, margins}}.

export const loader = ({ params, request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.financials.$id');
    return marketAnswer(request, async () => {
      const url = new URL(request.url);
      const format = formatOf(url);
      const asOf = asOfOf(url);
      const q = FinancialsQuery.safeParse({
        statement: url.searchParams.get('statement') ?? undefined,
        period: url.searchParams.get('period') ?? undefined,
      });
      if (!q.success) throw unprocessable('Invalid query parameters.', zodFieldErrors(q.error));
      const company = await apiCompany(params.id);
      const statement = await companyFinancials(company, asOf, q.data.statement, q.data.period);
      return respond(
        format,
        { company, as_of: asOf, statement },
        () => statementTable(statement),
        `${company.ticker}-${q.data.statement}-${q.data.period}.csv`,
      );
    });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
