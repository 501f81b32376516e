import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { ItemCreateBody, itemJson } from '~/services/watchlist/api.server';
import { addItem, listItems } from '~/services/watchlist/watchlists.server';

// GET /api/v1/watchlists/{id}/items => [{permaticker, note, added_at}].
// POST {permaticker, note?} => 201 when added, 200 when it was already there.

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.watchlists.$id.items');
    return jsonResponse((await listItems(user.id, params.id ?? '')).map(itemJson));
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const { user } = await requireAccount(request, 'api.v1.watchlists.$id.items');
    const body = await readApiBody(request, ItemCreateBody);
    const { item, created } = await addItem(user.id, params.id ?? '', body);
    return jsonResponse(itemJson(item), { status: created ? 201 : 200 });
  });
