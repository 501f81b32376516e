import type { ActionFunctionArgs } from '@remix-run/node';
import { authorize, readApiBody } from '~/services/auth/api.server';
import { asOfOrThrow } from '~/services/http/as-of';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { RunBody } from '~/services/screener/api-contract';
import { pageJson, screenOrThrow } from '~/services/screener/api.server';
import { explainScreen, runScreen } from '~/services/screener/run.server';

// POST /api/v1/screener/run {screen, as_of?, page_size?, explain?} => one page of results
// ({as_of, count, page, page_count, columns, rows}) and, with `explain`, that security's checks.
// The /screener page's rule decides: guests and accounts without access are refused.

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    await authorize(request, 'api.v1.screener.run');
    const body = await readApiBody(request, RunBody);
    const screen = screenOrThrow(body.screen);
    const asOf = asOfOrThrow(body.as_of) ?? 'latest';
    const page = await runScreen(screen, { asOf, pageSize: body.page_size });
    const explanation = body.explain === undefined ? undefined : await explainScreen(screen, body.explain, { asOf });
    return jsonResponse({ ...pageJson(page), ...(explanation ? { explanation } : {}) });
  });
