import sharp from 'sharp';
import { badRequest, DomainError } from '../http/errors';
import {
  PICTURE_DAMAGED_DETAIL,
  PICTURE_EMPTY_DETAIL,
  PICTURE_MAX_BYTES,
  PICTURE_MAX_SIDE,
  PICTURE_NAME_DETAIL,
  PICTURE_NOT_IMAGE_DETAIL,
  PICTURE_OUTPUT_SIDE,
  PICTURE_TOO_LARGE_DETAIL,
} from './profile-forms';

// Profile pictures are decoded by their content and re-encoded, never stored as sent: the
// client's file name and content type are not trusted, metadata (GPS, camera) is dropped, and a
// file that only claims to be an image never reaches the disk.

type PictureFormat = 'png' | 'jpeg' | 'webp';

/** The format by its magic bytes, so SVG, HTML and the like never reach an image decoder. */
export function sniffPictureFormat(bytes: Uint8Array): PictureFormat | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}

/**
 * Whether every PNG chunk is whole up to the end marker. libpng decodes a file whose last
 * chunks were cut off (the pixels may all be there), but a cut-off upload is refused all the same.
 */
function pngIsComplete(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  while (at + 12 <= bytes.byteLength) {
    const end = at + 12 + view.getUint32(at);
    if (end > bytes.byteLength) return false;
    if (String.fromCharCode(...bytes.subarray(at + 4, at + 8)) === 'IEND') return true;
    at = end;
  }
  return false;
}

/**
 * A file name as sent by a browser: a plain base name. Browsers never send folders, NUL or
 * control characters, so a name with them comes from a hand-made request and is refused.
 */
export function assertPlainFileName(name: string): void {
  // eslint-disable-next-line no-control-regex
  const bad = /[\u0000-\u001f\u007f/\\]/u.test(name) || name === '.' || name === '..' || name.length > 255;
  if (bad) throw badRequest(PICTURE_NAME_DETAIL, { picture: [PICTURE_NAME_DETAIL] });
}

function pictureError(status: number, detail: string): DomainError {
  return new DomainError(status, detail, { picture: [detail] });
}

/**
 * Checks an uploaded picture by its content and returns it as a square 256 × 256 WebP without
 * metadata. Every refusal is a 4xx DomainError with a message for the person who sent it.
 */
export async function reencodePicture(bytes: Uint8Array): Promise<Buffer> {
  if (bytes.byteLength === 0) throw pictureError(400, PICTURE_EMPTY_DETAIL);
  if (bytes.byteLength > PICTURE_MAX_BYTES) throw pictureError(413, PICTURE_TOO_LARGE_DETAIL);
  const format = sniffPictureFormat(bytes);
  if (!format) throw pictureError(415, PICTURE_NOT_IMAGE_DETAIL);
  if (format === 'png' && !pngIsComplete(bytes)) throw pictureError(400, PICTURE_DAMAGED_DETAIL);

  // failOn 'truncated' refuses cut-off files; limitInputPixels stops decompression bombs before
  // any pixel is decoded (the header alone says how big the image would be).
  const options = { failOn: 'truncated', limitInputPixels: PICTURE_MAX_SIDE * PICTURE_MAX_SIDE, animated: false } as const;
  let width: number | undefined;
  let height: number | undefined;
  try {
    const meta = await sharp(bytes, options).metadata();
    if (meta.format !== format) throw pictureError(415, PICTURE_NOT_IMAGE_DETAIL);
    width = meta.width;
    height = meta.height;
  } catch (e) {
    if (e instanceof DomainError) throw e;
    throw decodeFailure(e);
  }
  if (!width || !height) throw pictureError(400, PICTURE_DAMAGED_DETAIL);
  if (width > PICTURE_MAX_SIDE || height > PICTURE_MAX_SIDE) throw tooManyPixels(width, height);
  try {
    return await sharp(bytes, options)
      .rotate()
      .resize(PICTURE_OUTPUT_SIDE, PICTURE_OUTPUT_SIDE, { fit: 'cover', position: 'attention' })
      .webp({ quality: 85 })
      .toBuffer();
  } catch (e) {
    throw decodeFailure(e);
  }
}

function tooManyPixels(width: number, height: number): DomainError {
  return pictureError(
    422,
    `The picture is ${width} × ${height} pixels; the most is ${PICTURE_MAX_SIDE} × ${PICTURE_MAX_SIDE}. Choose a smaller picture.`,
  );
}

function decodeFailure(e: unknown): DomainError {
  const message = e instanceof Error ? e.message : String(e);
  // The header alone was enough to see the image is too large: say so, not "damaged".
  if (/pixel limit/i.test(message)) {
    return pictureError(422, `The picture has more than ${PICTURE_MAX_SIDE} × ${PICTURE_MAX_SIDE} pixels. Choose a smaller picture.`);
  }
  return pictureError(400, PICTURE_DAMAGED_DETAIL);
}
