import type { ActionFunctionArgs } from '@remix-run/node';
import { authorize } from '~/services/auth/api.server';
import { revokeTokenHash } from '~/services/auth/tokens.server';
import { handleApi, methodNotAllowed, noContent } from '~/services/http/api.server';

// POST /api/v1/auth/logout => 204; the caller's token no longer works.

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const caller = await authorize(request, 'api.v1.auth.logout');
    if (caller.kind === 'user') await revokeTokenHash(caller.tokenHash);
    return noContent();
  });
