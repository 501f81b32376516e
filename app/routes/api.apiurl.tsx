import type { LoaderFunctionArgs } from '@remix-run/node';
import { config } from '~/services/config.server';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';

// GET /api/apiurl => {url}: the API base URL the browser uses (for social sign-in).

export const loader = (_args: LoaderFunctionArgs) => handleApi(async () => jsonResponse({ url: `${config().appUrl}/api` }));

export const action = () => methodNotAllowed(['GET']);
