import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { ColumnSetCreateBody } from '~/services/screener/api-contract';
import { columnSetJson } from '~/services/screener/api.server';
import { createColumnSet, listColumnSets } from '~/services/screener/column-sets.server';

// GET /api/v1/screener/column-sets => the caller's saved column sets. POST {name, columns} => 201.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.screener.column-sets');
    return jsonResponse((await listColumnSets(user.id)).map(columnSetJson));
  });

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const { user } = await requireAccount(request, 'api.v1.screener.column-sets');
    const body = await readApiBody(request, ColumnSetCreateBody);
    return jsonResponse(columnSetJson(await createColumnSet(user.id, body)), { status: 201 });
  });
