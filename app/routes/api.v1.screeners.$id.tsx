import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { handleApi, jsonResponse, methodNotAllowed, noContent } from '~/services/http/api.server';
import { ScreenerPatchBody } from '~/services/screener/api-contract';
import { screenOrThrow, screenerJson } from '~/services/screener/api.server';
import { deleteScreener, getScreener, setScreenerShared, updateScreener } from '~/services/screener/saved.server';

// GET /api/v1/screeners/{id}; PATCH {name?, screen?, shared?}; DELETE => 204. Another user's id is 404.

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.screeners.$id');
    return jsonResponse(screenerJson(await getScreener(user.id, params.id ?? '')));
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    const id = params.id ?? '';
    switch (request.method) {
      case 'PATCH': {
        const { user } = await requireAccount(request, 'api.v1.screeners.$id');
        const body = await readApiBody(request, ScreenerPatchBody);
        const screen = body.screen === undefined ? undefined : screenOrThrow(body.screen);
        let saved = await updateScreener(user.id, id, { name: body.name, screen });
        if (body.shared !== undefined) saved = await setScreenerShared(user.id, id, body.shared);
        return jsonResponse(screenerJson(saved));
      }
      case 'DELETE': {
        const { user } = await requireAccount(request, 'api.v1.screeners.$id');
        await deleteScreener(user.id, id);
        return noContent();
      }
      default:
        return methodNotAllowed(['GET', 'PATCH', 'DELETE']);
    }
  });
