import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/services/auth/guard.server';
import { PICTURE_FILE_PATTERN } from '~/services/auth/picture-store.server';
import { readOwnPicture } from '~/services/auth/profile-picture.server';
import { isDomainError } from '~/services/http/errors';

// GET /uploads/avatars/<32 hex>.webp: the signed-in account's own profile picture. Only names
// of the stored form are looked at (anything else is 404 before the disk is touched), and the
// answer can never be run as a page: fixed type, no sniffing, a sandbox CSP.

const plainText = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } });
const NOT_FOUND = () => plainText(404, 'Picture not found.');

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const file = params.file ?? '';
  if (!PICTURE_FILE_PATTERN.test(file)) return NOT_FOUND();
  let bytes: Buffer;
  try {
    bytes = await readOwnPicture(user.id, file);
  } catch (e) {
    // 404, or 503 when the picture bucket is not answering.
    if (isDomainError(e)) return plainText(e.status, e.detail, e.headers);
    throw e;
  }
  return new Response(new Uint8Array(bytes), {
    headers: {
      'Content-Type': 'image/webp',
      'Content-Length': String(bytes.byteLength),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
      // A stored name is random and never reused for other bytes; private: it needs the session.
      'Cache-Control': 'private, max-age=31536000, immutable',
    },
  });
}
