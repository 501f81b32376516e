import { createHash } from 'node:crypto';
import { AwsClient } from 'aws4fetch';
import type { S3BucketConfig } from '../config.server';
import { DomainError } from '../http/errors';
import { fetchWithRetry, HttpError } from '../http/retrying-fetch';

// Objects in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2, Ceph …) over
// the S3 REST API with path-style URLs, requests signed with AWS Signature Version 4 by aws4fetch.
// Calls go through the one retrying fetch with a per-attempt timeout; a signature stays
// valid for 15 minutes, so a retry re-sends the same signed request. The payload hash is signed
// too (not UNSIGNED-PAYLOAD), so the store refuses a body changed on the way.

const ATTEMPT_TIMEOUT_MS = 10_000;

export const STORAGE_UNAVAILABLE_DETAIL = 'Picture storage is not answering. Try again in a minute.';

/** The store failed or refused: the user sees 503 and a retry hint; the operator gets the S3 error in the log. */
export class StorageError extends DomainError {
  override name = 'StorageError';
  constructor(readonly s3Detail: string) {
    super(503, STORAGE_UNAVAILABLE_DETAIL, undefined, { 'Retry-After': '30' });
    console.warn(`[storage] ${s3Detail}`);
  }
}

const timedFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });

/** "<Code>: <Message>" out of an S3 error document, or the status alone. */
function s3ErrorText(error: unknown): string {
  if (!(error instanceof HttpError)) return error instanceof Error ? error.message : String(error);
  const body = typeof error.data === 'string' ? error.data : '';
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]{1,300})<\/Message>/.exec(body)?.[1];
  return `${error.message}${code ? ` (${code}${message ? `: ${message}` : ''})` : ''}`;
}

export type S3Objects = {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is no such key; larger than `maxBytes` is an error. */
  get(key: string, maxBytes: number): Promise<Buffer | null>;
  /** Deleting a key that is not there succeeds, as in S3. */
  delete(key: string): Promise<void>;
};

export function s3Objects(bucket: S3BucketConfig, fetcher: typeof fetch = timedFetch): S3Objects {
  const signer = new AwsClient({
    accessKeyId: bucket.accessKeyId,
    secretAccessKey: bucket.secretAccessKey,
    service: 's3',
    region: bucket.region,
    retries: 0,
  });
  // Keys are ours (prefix + random hex name); each segment is still encoded as S3 expects.
  const urlOf = (key: string) =>
    `${bucket.endpoint}/${encodeURIComponent(bucket.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;

  async function send(method: 'GET' | 'PUT' | 'DELETE', key: string, body?: Uint8Array, contentType?: string): Promise<Response> {
    const url = urlOf(key);
    const payload = body === undefined ? undefined : new Uint8Array(body);
    const headers: Record<string, string> = {
      'X-Amz-Content-Sha256': createHash('sha256')
        .update(payload ?? new Uint8Array())
        .digest('hex'),
    };
    if (contentType) headers['Content-Type'] = contentType;
    const signed = await signer.sign(url, { method, headers, body: payload });
    return fetchWithRetry(url, { method, headers: signed.headers, body: payload }, { fetcher });
  }

  return {
    async put(key, bytes, contentType) {
      try {
        const response = await send('PUT', key, bytes, contentType);
        await response.arrayBuffer();
      } catch (e) {
        throw new StorageError(`PUT ${key}: ${s3ErrorText(e)}`);
      }
    },
    async get(key, maxBytes) {
      let response: Response;
      try {
        response = await send('GET', key);
      } catch (e) {
        if (e instanceof HttpError && e.status === 404 && /<Code>NoSuchKey<\/Code>/.test(String(e.data))) return null;
        throw new StorageError(`GET ${key}: ${s3ErrorText(e)}`);
      }
      const declared = Number(response.headers.get('Content-Length') ?? '0');
      if (declared > maxBytes) {
        await response.body?.cancel();
        throw new StorageError(`GET ${key}: the object is ${declared} bytes, more than the ${maxBytes} a picture can be`);
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      if (bytes.byteLength > maxBytes) throw new StorageError(`GET ${key}: the object is more than the ${maxBytes} bytes a picture can be`);
      return bytes;
    },
    async delete(key) {
      try {
        const response = await send('DELETE', key);
        await response.arrayBuffer();
      } catch (e) {
        throw new StorageError(`DELETE ${key}: ${s3ErrorText(e)}`);
      }
    },
  };
}
