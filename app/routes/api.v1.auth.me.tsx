import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { authorize, GUEST_DETAIL, readApiBody, requireAccount } from '~/services/auth/api.server';
import { ProfilePatchSchema } from '~/services/auth/schemas';
import { deleteAccount, updateProfile } from '~/services/auth/users.server';
import { publicUser } from '~/services/auth/types';
import { handleApi, jsonResponse, methodNotAllowed, noContent } from '~/services/http/api.server';

// GET /api/v1/auth/me => {id, email, full_name, profile_picture, has_access}, or {detail} for a guest.
// PATCH {full_name?, profile_picture?} => the updated user. DELETE => 204, the account and its data gone.

const ALLOWED = ['GET', 'PATCH', 'DELETE'];

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const caller = await authorize(request, 'api.v1.auth.me');
    if (caller.kind === 'guest') return jsonResponse({ detail: GUEST_DETAIL });
    return jsonResponse(publicUser(caller.user));
  });

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    switch (request.method) {
      case 'PATCH': {
        const caller = await requireAccount(request, 'api.v1.auth.me');
        const patch = await readApiBody(request, ProfilePatchSchema);
        return jsonResponse(publicUser(await updateProfile(caller.user.id, patch)));
      }
      case 'DELETE': {
        const caller = await requireAccount(request, 'api.v1.auth.me');
        // Deleting the user deletes its tokens too, so this token is revoked with it.
        await deleteAccount(caller.user.id);
        return noContent();
      }
      default:
        return methodNotAllowed(ALLOWED);
    }
  });
