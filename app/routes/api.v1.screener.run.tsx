import type { ActionFunctionArgs } from '@remix-run/node';
import { callerOf, readApiBody } from '~/services/auth/api.server';
import { asOfOrThrow } from '~/services/http/as-of';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { RunBody } from '~/services/screener/api-contract';
import { pageJson, screenOrThrow } from '~/services/screener/api.server';
import { explainScreen, runScreen } from '~/services/screener/run.server';

// POST /api/v1/screener/run {screen, as_of?, page_size?, explain?} => one page of results
// ({as_of, count, page, page_count, columns, rows}) and, with `explain`, that security's checks.
// Guests may run screens (they only cannot save them), but a token is required.

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    await callerOf(request);
    const body = await readApiBody(request, RunBody);
    const screen = screenOrThrow(body.screen);
    const asOf = asOfOrThrow(body.as_of) ?? 'latest';
    const page = await runScreen(screen, { asOf, pageSize: body.page_size });
    const explanation = body.explain === undefined ? undefined : await explainScreen(screen, body.explain, { asOf });
    return jsonResponse({ ...pageJson(page), ...(explanation ? { explanation } : {}) });
  });
