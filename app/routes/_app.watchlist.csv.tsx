import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/services/auth/guard.server';
import { csvRefusal, csvResponse } from '~/services/http/csv';
import { isDomainError } from '~/services/http/errors';
import { watchlistPageData } from '~/services/watchlist/page.server';
import { watchlistTable } from '~/services/watchlist/table';

// /watchlist/csv?list=<id>: the list as shown (its columns and sort), as CSV. Foreign ids 404.

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const url = new URL(request.url);
  try {
    const { view } = await watchlistPageData(user.id, url.searchParams.get('list'));
    return csvResponse(watchlistTable(view.rows, view.watchlist.columns), `${view.watchlist.name.slice(0, 60)}.csv`);
  } catch (e) {
    if (isDomainError(e) && e.status === 404) return csvRefusal(404, 'Watchlist not found.');
    throw e;
  }
}
