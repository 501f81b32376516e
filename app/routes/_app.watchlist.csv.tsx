import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/services/auth/guard.server';
import { isDomainError } from '~/services/http/errors';
import { watchlistPageData } from '~/services/watchlist/page.server';
import { watchlistCsv } from '~/services/watchlist/table';

// /watchlist/csv?list=<id>: the list as shown (its columns and sort), as CSV. Foreign ids 404.

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const url = new URL(request.url);
  try {
    const { view } = await watchlistPageData(user.id, url.searchParams.get('list'));
    const safeName = view.watchlist.name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60) || 'watchlist';
    return new Response(watchlistCsv(view.rows, view.watchlist.columns), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${safeName}.csv"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (e) {
    if (isDomainError(e) && e.status === 404) throw new Response('Watchlist not found.', { status: 404 });
    throw e;
  }
}
