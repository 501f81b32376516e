import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import yauzl from 'yauzl';
import { SecHttpError } from './edgar-client.server';

// The SEC's nightly bulk archives (companyfacts.zip, submissions.zip): each over a gigabyte and
// ZIP64 (far more than 65,535 entries), so they are downloaded to disk (resuming a cut-off
// download with a Range request) and read one entry at a time with yauzl, never whole in memory.

export const COMPANYFACTS_ZIP_PATH = '/Archives/edgar/daily-index/xbrl/companyfacts.zip';
export const SUBMISSIONS_ZIP_PATH = '/Archives/edgar/daily-index/bulkdata/submissions.zip';
/** The SEC rebuilds the archives every night: a download younger than this is used again. */
const FRESH_MS = 20 * 60 * 60_000;

export type DownloadOptions = { userAgent: string; fetch: typeof fetch; log: (message: string) => void; now?: () => number };

/**
 * The archive at `url` as a file under `dir`: a complete download of the last hours is reused; a
 * partial one (`.part`, left by a stopped run) is continued from where it stopped.
 */
export async function downloadArchive(url: string, dir: string, options: DownloadOptions): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, path.basename(new URL(url).pathname));
  const now = options.now?.() ?? Date.now();
  if (existsSync(file) && now - statSync(file).mtimeMs < FRESH_MS) {
    options.log(`Using ${path.basename(file)} downloaded earlier (${file}).`);
    return file;
  }
  const part = `${file}.part`;
  const have = existsSync(part) ? statSync(part).size : 0;
  const headers: Record<string, string> = { 'User-Agent': options.userAgent };
  if (have > 0) headers.Range = `bytes=${have}-`;
  const response = await options.fetch(url, { headers });
  if (response.status !== 200 && response.status !== 206) throw new SecHttpError(url, response.status);
  if (!response.body) throw new Error(`${url}: empty answer`);
  const resumed = response.status === 206;
  if (resumed) options.log(`Continuing the download of ${path.basename(file)} from byte ${have}.`);
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(part, { flags: resumed ? 'a' : 'w' }));
  } catch (e) {
    const got = existsSync(part) ? statSync(part).size : 0;
    throw new Error(
      `${url}: download cut off at ${got} bytes (${e instanceof Error ? e.message : String(e)}); run the import again to continue it`,
    );
  }
  const expected = Number(response.headers.get('content-length'));
  const size = statSync(part).size;
  if (Number.isFinite(expected) && expected > 0 && size !== (resumed ? have : 0) + expected)
    throw new Error(`${url}: download cut off at ${size} bytes; run the import again to continue it`);
  renameSync(part, file);
  return file;
}

export type ZipArchive = {
  /** Entry names (in archive order) with what reading one needs. */
  entries: Map<string, yauzl.Entry>;
  read(entry: yauzl.Entry): Promise<Buffer>;
  close(): void;
};

/** Opens a (ZIP64 or plain) archive and lists its entries without reading their contents. */
export function openZipArchive(file: string): Promise<ZipArchive> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, zip) => {
      if (err || !zip) return reject(new Error(`${file}: not a readable zip archive: ${err?.message ?? 'unknown error'}`));
      const entries = new Map<string, yauzl.Entry>();
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on('error', (e: Error) => reject(new Error(`${file}: ${e.message}`)));
      zip.on('end', () =>
        resolve({
          entries,
          read: (entry) =>
            new Promise<Buffer>((done, fail) => {
              zip.openReadStream(entry, (e, stream) => {
                if (e || !stream) return fail(new Error(`${file}!${entry.fileName}: ${e?.message ?? 'unreadable'}`));
                const chunks: Buffer[] = [];
                stream.on('data', (c: Buffer) => chunks.push(c));
                stream.on('error', (se: Error) => fail(new Error(`${file}!${entry.fileName}: ${se.message}`)));
                stream.on('end', () => done(Buffer.concat(chunks)));
              });
            }),
          close: () => zip.close(),
        }),
      );
      zip.readEntry();
    });
  });
}
