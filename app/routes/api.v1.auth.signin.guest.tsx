import type { ActionFunctionArgs } from '@remix-run/node';
import { tokenResponse } from '~/services/auth/api.server';
import { issueGuestToken } from '~/services/auth/tokens.server';
import { handleApi, methodNotAllowed } from '~/services/http/api.server';

// POST /api/v1/auth/signin/guest => 200 {access_token, token_type}: a stateless guest token.

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    return tokenResponse(issueGuestToken());
  });
