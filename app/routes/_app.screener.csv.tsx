import type { LoaderFunctionArgs } from '@remix-run/node';
import { guard } from '~/services/auth/guard.server';
import { resultsCsv } from '~/services/screener/csv';
import { screenerPageData } from '~/services/screener/page.server';

// /screener/csv?<screen>: exactly the table /screener shows for the same query (same page, sort
// and columns), as CSV. A broken screen answers 400 with the problems, as text.

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await guard(request);
  const url = new URL(request.url);
  const data = await screenerPageData(url.searchParams, user?.id ?? null);
  if (data.errors.length > 0 || !data.results) {
    const text = data.errors.length > 0 ? data.errors.map((e) => e.message).join('\n') : (data.unavailable ?? 'No results.');
    return new Response(`${text}\n`, {
      status: data.errors.length > 0 ? 400 : 503,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const csv = resultsCsv(data.results, { rank: data.screen.ranking.length > 0 });
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="screen-${data.results.asOf}-page-${data.results.page}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
