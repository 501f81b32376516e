import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { WatchlistCreateBody, watchlistJson } from '~/services/watchlist/api.server';
import { createWatchlist, listWatchlists } from '~/services/watchlist/watchlists.server';

// GET /api/v1/watchlists => the caller's lists (a default one is created on first use).
// POST {name, columns?} => 201 the new list.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.watchlists');
    return jsonResponse((await listWatchlists(user.id)).map(watchlistJson));
  });

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const { user } = await requireAccount(request, 'api.v1.watchlists');
    const body = await readApiBody(request, WatchlistCreateBody);
    return jsonResponse(watchlistJson(await createWatchlist(user.id, body)), { status: 201 });
  });
