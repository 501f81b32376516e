import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { config } from '../config.server';
import { s3Objects } from '../storage/s3-objects.server';

// Where re-encoded profile pictures live: DATA_DIR/uploads/avatars/<32 hex>.webp, or, when
// S3_BUCKET is set, the object <S3_PREFIX><32 hex>.webp in that bucket. Either way the app serves
// them itself under /uploads/avatars/<name> (owner only, safe headers), so the bucket stays
// private and users.profile_picture does not change when an instance moves between the two.
// Names are random (never the uploader's) and never reused.

export const PICTURE_URL_PREFIX = '/uploads/avatars/';
export const PICTURE_FILE_PATTERN = /^[0-9a-f]{32}\.webp$/;
/** A stored picture is a 256 × 256 WebP of a few KB; anything far larger in the store is not ours. */
const STORED_PICTURE_MAX_BYTES = 1024 * 1024;

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

type PictureStore = {
  write(file: string, bytes: Uint8Array): Promise<void>;
  read(file: string): Promise<Buffer | null>;
  remove(file: string): Promise<void>;
};

const diskStore: PictureStore = {
  // Written under a temporary name and renamed into place, so a reader never sees half a file.
  async write(file, bytes) {
    const dir = picturesDir();
    await mkdir(dir, { recursive: true });
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
  },
  read(file) {
    return readFile(path.join(picturesDir(), file)).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
  },
  async remove(file) {
    await unlink(path.join(picturesDir(), file)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  },
};

function bucketStore(): PictureStore | null {
  const bucket = config().pictureBucket;
  if (!bucket) return null;
  // A PUT of one object is atomic in S3: a reader sees the old state or the whole picture.
  const objects = s3Objects(bucket);
  return {
    write: (file, bytes) => objects.put(`${bucket.prefix}${file}`, bytes, 'image/webp'),
    read: (file) => objects.get(`${bucket.prefix}${file}`, STORED_PICTURE_MAX_BYTES),
    remove: (file) => objects.delete(`${bucket.prefix}${file}`),
  };
}

const store = (): PictureStore => bucketStore() ?? diskStore;

/** Stores an already re-encoded picture; returns its file name. */
export async function writePictureFile(bytes: Uint8Array): Promise<string> {
  const file = `${randomBytes(16).toString('hex')}.webp`;
  await store().write(file, bytes);
  return file;
}

/**
 * Deletes a stored picture; names that are not ours and files already gone are ignored. Called
 * after the database no longer points at it, so a failure is logged (the file is left behind)
 * rather than failing an upload, a removal or an account deletion that has already happened.
 */
export async function deletePictureFile(file: string | null): Promise<void> {
  if (!file || !PICTURE_FILE_PATTERN.test(file)) return;
  try {
    await store().remove(file);
  } catch (e) {
    console.warn(
      `[pictures] could not delete ${file}; it is no longer used and can be removed by hand: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/** The bytes of a stored picture, or null when there is no such file. */
export async function readPictureFile(file: string): Promise<Buffer | null> {
  if (!PICTURE_FILE_PATTERN.test(file)) return null;
  return store().read(file);
}
