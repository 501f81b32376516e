import { getDb } from '../db/db.server';
import { notFound } from '../http/errors';
import { assertPlainFileName, reencodePicture } from './picture-image.server';
import { deletePictureFile, pictureFileOfUrl, pictureUrl, readPictureFile, writePictureFile } from './picture-store.server';
import type { AccountUser } from './types';
import { getUserById } from './users.server';

// Uploading, removing and serving a profile picture. The same functions serve the profile page
// and the JSON API.

export type PictureUpload = { bytes: Uint8Array; fileName: string };

/**
 * Sets users.profile_picture to `next` only if it still holds what was read, so two uploads at
 * once each delete exactly the picture they replaced. Returns the stored file it replaced.
 */
async function swapPicture(userId: string, next: string | null): Promise<string | null> {
  const db = await getDb();
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db.selectFrom('users').select('profile_picture').where('id', '=', userId).executeTakeFirst();
    if (!row) throw notFound('User not found.');
    const previous = row.profile_picture;
    const result = await db
      .updateTable('users')
      .set({ profile_picture: next, updated_at: new Date().toISOString() })
      .where('id', '=', userId)
      .where((eb) => (previous === null ? eb('profile_picture', 'is', null) : eb('profile_picture', '=', previous)))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return pictureFileOfUrl(previous);
  }
  throw new Error('The profile picture kept changing while it was being replaced.');
}

/** Checks, re-encodes and stores an uploaded picture, then makes it the user's picture. */
export async function setProfilePicture(userId: string, upload: PictureUpload): Promise<AccountUser> {
  assertPlainFileName(upload.fileName);
  const webp = await reencodePicture(upload.bytes);
  const file = await writePictureFile(webp);
  let replaced: string | null;
  try {
    replaced = await swapPicture(userId, pictureUrl(file));
  } catch (e) {
    await deletePictureFile(file);
    throw e;
  }
  await deletePictureFile(replaced);
  return getUserById(userId);
}

export async function removeProfilePicture(userId: string): Promise<AccountUser> {
  await deletePictureFile(await swapPicture(userId, null));
  return getUserById(userId);
}

/**
 * The bytes of `file` for the user whose picture it is. Anything else, including another
 * account's picture, is 404: a picture is shown to its owner only.
 */
export async function readOwnPicture(userId: string, file: string): Promise<Buffer> {
  const db = await getDb();
  const row = await db.selectFrom('users').select('profile_picture').where('id', '=', userId).executeTakeFirst();
  if (!row || pictureFileOfUrl(row.profile_picture) !== file) throw notFound('Picture not found.');
  const bytes = await readPictureFile(file);
  if (!bytes) throw notFound('Picture not found.');
  return bytes;
}
