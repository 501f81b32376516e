import type { ActionFunctionArgs } from '@remix-run/node';
import { signUp } from '~/services/auth/accounts.server';
import { readApiBody, requestContext, tokenResponse } from '~/services/auth/api.server';
import { SignUpSchema } from '~/services/auth/schemas';
import { handleApi, methodNotAllowed } from '~/services/http/api.server';

// POST /api/v2/auth/signup {email, full_name, password, password_confirmation} => 201 {access_token, token_type}

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const input = await readApiBody(request, SignUpSchema);
    const { token } = await signUp(input, requestContext(request));
    return tokenResponse(token, 201);
  });
