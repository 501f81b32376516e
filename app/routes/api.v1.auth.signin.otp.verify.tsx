import type { ActionFunctionArgs } from '@remix-run/node';
import { verifySignIn } from '~/services/auth/accounts.server';
import { readApiBody, requestContext, tokenResponse } from '~/services/auth/api.server';
import { OtpVerifySchema } from '~/services/auth/schemas';
import { handleApi, methodNotAllowed } from '~/services/http/api.server';

// POST /api/v1/auth/signin/otp/verify {token, email} => 200 {access_token, token_type}

export const loader = () => methodNotAllowed(['POST']);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const input = await readApiBody(request, OtpVerifySchema);
    const { token } = await verifySignIn(input, requestContext(request));
    return tokenResponse(token);
  });
