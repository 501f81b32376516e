import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { handleApi, methodNotAllowed } from '~/services/http/api.server';
import { unprocessable } from '~/services/http/errors';
import { asOfOf, formatOf, respond } from '~/services/company/company-api.server';
import { marketOverview } from '~/services/market-overview/market-overview.server';
import { marketTable } from '~/services/company/table-exports';

// GET /api/v1/market-overview?as_of=&format=json|csv&table=sectors|movers|filings => the home
// page's data: {date, snapshotDate, benchmark, benchmarkReturn, sectors, gainers, losers, filings}.
const Table = z.enum(['sectors', 'movers', 'filings']);

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const url = new URL(request.url);
    const format = formatOf(url);
    const asOf = asOfOf(url);
    const table = Table.safeParse(url.searchParams.get('table') ?? 'sectors');
    if (!table.success)
      throw unprocessable('`table` must be sectors, movers or filings.', { table: ['Must be sectors, movers or filings.'] });
    const o = await marketOverview(asOf);
    return respond(format, { as_of: asOf, ...o }, () => marketTable(o, table.data), `market-${table.data}-${o.date ?? 'none'}.csv`);
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
