import type { ActionFunctionArgs } from '@remix-run/node';
import { requestPasswordReset } from '~/services/auth/accounts.server';
import { readApiBody, requestContext } from '~/services/auth/api.server';
import { ResetRequestSchema } from '~/services/auth/schemas';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';

// POST /api/v1/auth/reset-password {email} => 200 {ok: true}, the same whether the account exists or not.

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const input = await readApiBody(request, ResetRequestSchema);
    await requestPasswordReset(input, requestContext(request));
    return jsonResponse({ ok: true });
  });
