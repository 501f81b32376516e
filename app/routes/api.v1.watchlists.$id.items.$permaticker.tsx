import type { ActionFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { notFound } from '~/services/http/errors';
import { handleApi, jsonResponse, methodNotAllowed, noContent } from '~/services/http/api.server';
import { ItemPatchBody, itemJson } from '~/services/watchlist/api.server';
import { StoredPermatickerSchema } from '~/services/watchlist/model';
import { removeItem, setItemNote } from '~/services/watchlist/watchlists.server';

// DELETE /api/v1/watchlists/{id}/items/{permaticker} => 204. PATCH {note} => the item.

export const loader = () => methodNotAllowed(['PATCH', 'DELETE']);

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    // Not a number at all: a 404. A number is looked up as stored, so a bad row stays removable.
    const parsed = /^-?\d{1,10}$/.test(params.permaticker ?? '') ? StoredPermatickerSchema.safeParse(params.permaticker) : null;
    if (!parsed?.success) throw notFound('This security is not on the watchlist.');
    const id = params.id ?? '';
    switch (request.method) {
      case 'DELETE': {
        const { user } = await requireAccount(request, 'api.v1.watchlists.$id.items.$permaticker');
        await removeItem(user.id, id, parsed.data);
        return noContent();
      }
      case 'PATCH': {
        const { user } = await requireAccount(request, 'api.v1.watchlists.$id.items.$permaticker');
        const body = await readApiBody(request, ItemPatchBody);
        return jsonResponse(itemJson(await setItemNote(user.id, id, parsed.data, body.note)));
      }
      default:
        return methodNotAllowed(['PATCH', 'DELETE']);
    }
  });
