import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { handleApi, jsonResponse, methodNotAllowed, noContent } from '~/services/http/api.server';
import { ColumnSetPatchBody } from '~/services/screener/api-contract';
import { columnSetJson } from '~/services/screener/api.server';
import { deleteColumnSet, getColumnSet, updateColumnSet } from '~/services/screener/column-sets.server';

// GET /api/v1/screener/column-sets/{id}; PATCH {name?, columns?}; DELETE => 204. Another user's id is 404.

const ROUTE = 'api.v1.screener.column-sets.$id';

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, ROUTE);
    return jsonResponse(columnSetJson(await getColumnSet(user.id, params.id ?? '')));
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    const id = params.id ?? '';
    switch (request.method) {
      case 'PATCH': {
        const { user } = await requireAccount(request, ROUTE);
        const body = await readApiBody(request, ColumnSetPatchBody);
        return jsonResponse(columnSetJson(await updateColumnSet(user.id, id, body)));
      }
      case 'DELETE': {
        const { user } = await requireAccount(request, ROUTE);
        await deleteColumnSet(user.id, id);
        return noContent();
      }
      default:
        return methodNotAllowed(['GET', 'PATCH', 'DELETE']);
    }
  });
