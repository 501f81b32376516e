import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { handleApi, jsonResponse, methodNotAllowed, noContent } from '~/services/http/api.server';
import { WatchlistPatchBody, rowJson, watchlistJson } from '~/services/watchlist/api.server';
import { watchlistView } from '~/services/watchlist/view.server';
import { deleteWatchlist, updateWatchlist } from '~/services/watchlist/watchlists.server';

// GET /api/v1/watchlists/{id} => the list with its rows (latest values of its columns).
// PATCH {name?, columns?, sort?, is_default?}; DELETE => 204. Another user's id is 404.

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.watchlists.$id');
    const view = await watchlistView(user.id, params.id ?? '');
    return jsonResponse({ ...watchlistJson(view.watchlist), as_of: view.asOf, rows: view.rows.map(rowJson) });
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    const id = params.id ?? '';
    switch (request.method) {
      case 'PATCH': {
        const { user } = await requireAccount(request, 'api.v1.watchlists.$id');
        const body = await readApiBody(request, WatchlistPatchBody);
        const updated = await updateWatchlist(user.id, id, {
          name: body.name,
          columns: body.columns,
          sort: body.sort,
          isDefault: body.is_default,
        });
        return jsonResponse(watchlistJson(updated));
      }
      case 'DELETE': {
        const { user } = await requireAccount(request, 'api.v1.watchlists.$id');
        await deleteWatchlist(user.id, id);
        return noContent();
      }
      default:
        return methodNotAllowed(['GET', 'PATCH', 'DELETE']);
    }
  });
