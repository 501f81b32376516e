import type { LoaderFunctionArgs } from '@remix-run/node';
import { guard } from '~/services/auth/guard.server';
import { csvRefusal, csvResponse } from '~/services/http/csv';
import { resultsTable } from '~/services/screener/csv';
import { screenerPageData } from '~/services/screener/page.server';

// /screener/csv?<screen>: every result of the screen /screener shows for the same query (all
// pages, same sort and columns), as CSV. A broken screen answers 400 with the problems, as text.

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await guard(request);
  const url = new URL(request.url);
  const data = await screenerPageData(url.searchParams, user?.id ?? null, { pageSize: 'all' });
  if (data.errors.length > 0 || !data.results) {
    const text = data.errors.length > 0 ? data.errors.map((e) => e.message).join('\n') : (data.unavailable ?? 'No results.');
    return csvRefusal(data.errors.length > 0 ? 400 : 503, text);
  }
  const table = resultsTable(data.results, { rank: data.screen.ranking.length > 0 });
  return csvResponse(table, `screen-${data.results.asOf}.csv`);
}
