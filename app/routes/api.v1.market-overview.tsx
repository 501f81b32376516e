import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, methodNotAllowed } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { unprocessable } from '~/services/http/errors';
import { asOfOf, formatOf, respond } from '~/services/company/company-api.server';
import { MarketTableQuery } from '~/services/market-overview/api-contract';
import { marketOverview } from '~/services/market-overview/market-overview.server';
import { marketTable } from '~/services/company/table-exports';

// GET /api/v1/market-overview?as_of=&format=json|csv&table=sectors|movers|filings => the home
// page's data: {date, snapshotDate, benchmark, benchmarkReturn, sectors, gainers, losers, filings}.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.market-overview');
    return marketAnswer(request, async () => {
      const url = new URL(request.url);
      const format = formatOf(url);
      const asOf = asOfOf(url);
      const table = MarketTableQuery.shape.table.safeParse(url.searchParams.get('table') ?? 'sectors');
      if (!table.success)
        throw unprocessable('`table` must be sectors, movers or filings.', { table: ['Must be sectors, movers or filings.'] });
      const o = await marketOverview(asOf);
      return respond(format, { as_of: asOf, ...o }, () => marketTable(o, table.data), `market-${table.data}-${o.date ?? 'none'}.csv`);
    });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
