import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { config } from '../config.server';

// Re-encoded profile pictures on local disk: DATA_DIR/uploads/avatars/<32 hex>.webp. Names are
// random (never the uploader's), written under a temporary name and renamed into place, so a
// reader never sees half a file. users.profile_picture holds the URL they are served under.

export const PICTURE_URL_PREFIX = '/uploads/avatars/';
export const PICTURE_FILE_PATTERN = /^[0-9a-f]{32}\.webp$/;

export function picturesDir(): string {
  return path.join(config().dataDir, 'uploads', 'avatars');
}

export function pictureUrl(file: string): string {
  return `${PICTURE_URL_PREFIX}${file}`;
}

/** The stored file behind a profile_picture value, or null for an outside address or nothing. */
export function pictureFileOfUrl(url: string | null | undefined): string | null {
  if (!url?.startsWith(PICTURE_URL_PREFIX)) return null;
  const file = url.slice(PICTURE_URL_PREFIX.length);
  return PICTURE_FILE_PATTERN.test(file) ? file : null;
}

/** Stores an already re-encoded picture; returns its file name. */
export async function writePictureFile(bytes: Uint8Array): Promise<string> {
  const dir = picturesDir();
  await mkdir(dir, { recursive: true });
  const file = `${randomBytes(16).toString('hex')}.webp`;
  const temp = path.join(dir, `.${file}.${process.pid}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path.join(dir, file));
  } catch (e) {
    await unlink(temp).catch(() => undefined);
    throw e;
  }
  return file;
}

/** Deletes a stored picture; names that are not ours and files already gone are ignored. */
export async function deletePictureFile(file: string | null): Promise<void> {
  if (!file || !PICTURE_FILE_PATTERN.test(file)) return;
  await unlink(path.join(picturesDir(), file)).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}

/** The bytes of a stored picture, or null when there is no such file. */
export async function readPictureFile(file: string): Promise<Buffer | null> {
  if (!PICTURE_FILE_PATTERN.test(file)) return null;
  return readFile(path.join(picturesDir(), file)).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
}
