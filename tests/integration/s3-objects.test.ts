import { AwsClient } from 'aws4fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3BucketConfig } from '~/services/config.server';
import { s3Objects, StorageError } from '~/services/storage/s3-objects.server';
import { startS3Simulator, type S3Simulator } from '../support/s3';

// The S3 object client against the local S3 wire-format store, and that store's own signature
// checks: a request it would accept from us must be refused when unsigned, tampered or stale.

let sim: S3Simulator;
let bucket: S3BucketConfig;
beforeAll(async () => {
  sim = await startS3Simulator({ region: 'auto' });
  bucket = {
    endpoint: sim.url,
    bucket: sim.bucket,
    region: sim.region,
    accessKeyId: sim.accessKeyId,
    secretAccessKey: sim.secretAccessKey,
    prefix: '',
  };
});
afterAll(async () => {
  await sim?.close();
});

describe('S3 objects', () => {
  it('puts, gets and deletes, keys with spaces and non-ASCII letters included', async () => {
    const objects = s3Objects(bucket);
    const key = 'folder/a b+c=ü.webp';
    await objects.put(key, new Uint8Array([1, 2, 3]), 'image/webp');
    expect(sim.objects.get(key)).toMatchObject({ contentType: 'image/webp', bytes: Buffer.from([1, 2, 3]) });
    expect(await objects.get(key, 10)).toEqual(Buffer.from([1, 2, 3]));
    await objects.delete(key);
    expect(await objects.get(key, 10)).toBeNull();
    await objects.delete(key); // already gone: still fine
  });

  it('an object larger than the caller allows is an error, not a read', async () => {
    const objects = s3Objects(bucket);
    await objects.put('big.webp', new Uint8Array(2048), 'image/webp');
    await expect(objects.get('big.webp', 1024)).rejects.toBeInstanceOf(StorageError);
  });

  it('a missing bucket and wrong keys are storage errors (503), not "no such picture"', async () => {
    await expect(s3Objects({ ...bucket, bucket: 'no-such-bucket' }).get('x.webp', 10)).rejects.toMatchObject({
      status: 503,
      s3Detail: expect.stringContaining('NoSuchBucket'),
    });
    await expect(s3Objects({ ...bucket, accessKeyId: 'AKIAWRONG' }).put('x.webp', new Uint8Array(1), 'image/webp')).rejects.toMatchObject({
      s3Detail: expect.stringContaining('InvalidAccessKeyId'),
    });
    await expect(s3Objects({ ...bucket, region: 'us-east-1' }).put('x.webp', new Uint8Array(1), 'image/webp')).rejects.toMatchObject({
      s3Detail: expect.stringContaining('AuthorizationHeaderMalformed'),
    });
    expect(sim.objects.has('x.webp')).toBe(false);
  });

  describe('the store checks signatures', () => {
    const signer = () =>
      new AwsClient({ accessKeyId: sim.accessKeyId, secretAccessKey: sim.secretAccessKey, service: 's3', region: sim.region, retries: 0 });
    const url = () => `${sim.url}/${sim.bucket}/checked.bin`;

    it('refuses an unsigned request', async () => {
      const r = await fetch(url(), { method: 'PUT', body: 'x' });
      expect(r.status).toBe(403);
      expect(await r.text()).toContain('<Code>AccessDenied</Code>');
    });

    it('refuses a body changed after signing', async () => {
      const body = new TextEncoder().encode('original');
      const hash = Buffer.from(await crypto.subtle.digest('SHA-256', body)).toString('hex');
      const signed = await signer().sign(url(), { method: 'PUT', body, headers: { 'X-Amz-Content-Sha256': hash } });
      const r = await fetch(url(), { method: 'PUT', headers: signed.headers, body: 'tampered' });
      expect(r.status).toBe(400);
      expect(await r.text()).toContain('XAmzContentSHA256Mismatch');
    });

    it('refuses a signed header changed after signing, and a stale request', async () => {
      const signed = await signer().sign(url(), {
        method: 'PUT',
        body: 'x',
        headers: { 'X-Amz-Meta-Owner': 'alice', 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
      });
      const headers = new Headers(signed.headers);
      headers.set('X-Amz-Meta-Owner', 'mallory');
      const changed = await fetch(url(), { method: 'PUT', headers, body: 'x' });
      expect(changed.status).toBe(403);
      expect(await changed.text()).toContain('SignatureDoesNotMatch');

      const stale = await signer().sign(url(), {
        method: 'GET',
        headers: { 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
        aws: { datetime: '20200101T000000Z' },
      });
      const old = await fetch(url(), { headers: stale.headers });
      expect(old.status).toBe(403);
      expect(await old.text()).toContain('RequestTimeTooSkewed');
      expect(sim.objects.has('checked.bin')).toBe(false);
    });
  });
});
