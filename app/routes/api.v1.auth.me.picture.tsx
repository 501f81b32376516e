import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { requireAccount } from '~/services/auth/api.server';
import { PICTURE_TOO_LARGE_DETAIL, PICTURE_FORM_MAX_BYTES } from '~/services/auth/profile-forms';
import { removeProfilePicture, setProfilePicture } from '~/services/auth/profile-picture.server';
import { publicUser } from '~/services/auth/types';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { readBodyBytes } from '~/services/http/request-body.server';

// POST /api/v1/auth/me/picture with the picture itself as the body (PNG, JPEG or WebP; its type
// is read from the bytes, not from Content-Type) => the updated user, profile_picture set.
// DELETE => the updated user without a picture. Same checks and storage as the profile page.

const ALLOWED = ['POST', 'DELETE'];

export const loader = (_args: LoaderFunctionArgs) => handleApi(async () => methodNotAllowed(ALLOWED));

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    switch (request.method) {
      case 'POST': {
        const caller = await requireAccount(request, 'api.v1.auth.me.picture');
        // The file's own size limit is checked after reading; the cap only stops the read.
        const bytes = await readBodyBytes(request, { maxBytes: PICTURE_FORM_MAX_BYTES, tooLargeDetail: PICTURE_TOO_LARGE_DETAIL });
        return jsonResponse(publicUser(await setProfilePicture(caller.user.id, { bytes, fileName: '' })));
      }
      case 'DELETE': {
        const caller = await requireAccount(request, 'api.v1.auth.me.picture');
        return jsonResponse(publicUser(await removeProfilePicture(caller.user.id)));
      }
      default:
        return methodNotAllowed(ALLOWED);
    }
  });
