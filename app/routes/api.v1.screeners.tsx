import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { readApiBody, requireAccount } from '~/services/auth/api.server';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { ScreenerCreateBody } from '~/services/screener/api-contract';
import { screenOrThrow, screenerJson } from '~/services/screener/api.server';
import { createScreener, listScreeners } from '~/services/screener/saved.server';

// GET /api/v1/screeners => the caller's saved screeners. POST {name, screen} => 201 the new one.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const { user } = await requireAccount(request, 'api.v1.screeners');
    return jsonResponse((await listScreeners(user.id)).map(screenerJson));
  });

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const { user } = await requireAccount(request, 'api.v1.screeners');
    const body = await readApiBody(request, ScreenerCreateBody);
    const saved = await createScreener(user.id, { name: body.name, screen: screenOrThrow(body.screen) });
    return jsonResponse(screenerJson(saved), { status: 201 });
  });
