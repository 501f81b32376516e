import { CURRENT_BUILD_ID } from '~/ui/build-updates';
import { jsonResponse } from '~/services/http/api.server';

// The build the server runs now; browsers compare it with the build they loaded.
export function loader() {
  return jsonResponse({ id: CURRENT_BUILD_ID });
}
