import { CURRENT_BUILD_ID } from '~/ui/build-updates';
import { jsonResponse } from '~/services/http/api.server';

// The build the server runs now; browsers compare it with the build they loaded (spec §7).
export function loader() {
  return jsonResponse({ id: CURRENT_BUILD_ID });
}
