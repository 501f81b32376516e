import type { LoaderFunctionArgs } from '@remix-run/node';
import { CURRENT_BUILD_ID } from '~/ui/build-updates';
import { errorResponse, jsonResponse } from '~/services/http/api.server';

// GET /builds/meta/{buildId}.json: what is known about a build (only the running one here).
export function loader({ params }: LoaderFunctionArgs) {
  const id = (params.file ?? '').replace(/\.json$/, '');
  if (id !== CURRENT_BUILD_ID) return errorResponse(404, `Unknown build: ${id}`);
  return jsonResponse({ id, current: true });
}
