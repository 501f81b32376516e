import type { ActionFunctionArgs } from '@remix-run/node';
import { confirmPasswordReset } from '~/services/auth/accounts.server';
import { readApiBody, requestContext } from '~/services/auth/api.server';
import { ResetConfirmSchema } from '~/services/auth/schemas';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';

// POST /api/v1/auth/reset-password-confirm {email, token, password, password_confirmation} => 200 {ok: true}

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const input = await readApiBody(request, ResetConfirmSchema);
    await confirmPasswordReset(input, requestContext(request));
    return jsonResponse({ ok: true });
  });
