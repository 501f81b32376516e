import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiDocument } from '~/services/api-operations';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';

// GET /api/openapi.json: the OpenAPI 3.1 document of every endpoint under /api, generated from
// the zod schemas the routes parse with and answer by (services/api-operations.ts).

export const loader = (_: LoaderFunctionArgs) => handleApi(async () => jsonResponse(apiDocument()));
export const action = () => methodNotAllowed(['GET']);
