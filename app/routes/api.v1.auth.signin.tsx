import type { ActionFunctionArgs } from '@remix-run/node';
import { startSignIn } from '~/services/auth/accounts.server';
import { readApiBody, requestContext } from '~/services/auth/api.server';
import { SignInSchema } from '~/services/auth/schemas';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';

// POST /api/v1/auth/signin {email, password} => 200 {otp_required: true, email}; the code goes by mail.

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const input = await readApiBody(request, SignInSchema);
    const { email } = await startSignIn(input, requestContext(request));
    return jsonResponse({ otp_required: true, email });
  });
