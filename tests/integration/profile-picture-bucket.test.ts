import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as profileRoute from '~/routes/_app.profile';
import * as pictureApi from '~/routes/api.v1.auth.me.picture';
import * as avatarRoute from '~/routes/uploads.avatars.$file';
import { PICTURE_NOT_IMAGE_DETAIL } from '~/services/auth/profile-forms';
import { resetRateLimitsForTests } from '~/services/auth/rate-limit.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import { createUser, getUserById } from '~/services/auth/users.server';
import { resetConfigForTests } from '~/services/config.server';
import { STORAGE_UNAVAILABLE_DETAIL } from '~/services/storage/s3-objects.server';
import { callRoute } from '../support/api';
import { forEachDatabase } from '../support/databases';
import { callPage, sessionCookieFor } from '../support/pages';
import { startS3Simulator, type S3Simulator } from '../support/s3';

// Profile pictures in an S3-compatible bucket (S3_BUCKET …): the same profile form and JSON API,
// with the re-encoded picture PUT into a local S3 wire-format store that checks every request's
// SigV4 signature and payload hash. Nothing goes to DATA_DIR/uploads; replaced, removed and
// deleted accounts' pictures leave the bucket; a store that is down or refuses our signature
// answers 503 with a retry hint, never a 500, and never loses the picture the user had.

let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;

/** The multipart body a browser sends for the picture form, with its length. */
async function pictureForm(bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.set('intent', 'upload-picture');
  form.set('picture', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return { body, headers: { 'Content-Type': encoded.headers.get('Content-Type') ?? '', 'Content-Length': String(body.byteLength) } };
}

let sim: S3Simulator;
const env: Record<string, string | undefined> = {};
beforeAll(async () => {
  sim = await startS3Simulator();
  Object.assign(env, {
    S3_BUCKET: sim.bucket,
    S3_ACCESS_KEY_ID: sim.accessKeyId,
    S3_SECRET_ACCESS_KEY: sim.secretAccessKey,
    S3_ENDPOINT: sim.url,
    S3_REGION: sim.region,
    S3_PREFIX: 'profiles/avatars/',
  });
});
afterAll(async () => {
  await sim?.close();
});

forEachDatabase(
  'profile pictures in an S3-compatible bucket',
  (target) => {
    let png: Buffer;
    let owner: { id: string; cookie: string };

    beforeAll(async () => {
      png = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 30, g: 120, b: 200 } } })
        .png()
        .toBuffer();
      const user = await createUser({ email: email('bucket'), password: 'correct horse battery', full_name: 'Bucket Owner', access: true });
      owner = { id: user.id, cookie: (await sessionCookieFor(user)).cookie };
    });
    beforeEach(() => {
      resetRateLimitsForTests();
      sim.failNext(0);
    });

    const upload = async (cookie: string, bytes: Uint8Array = png, name = 'me.png') =>
      callPage(profileRoute.action, '/profile', { cookie, ...(await pictureForm(bytes, name)) });
    const keyOf = (url: string | null) => `profiles/avatars/${path.basename(url ?? '')}`;
    const pictureOf = async (id: string) => (await getUserById(id)).profile_picture;
    const uploadsDir = () => path.join(target.dataDir, 'uploads');

    it('stores the re-encoded picture in the bucket, not on disk, and serves it back to its owner', async () => {
      const r = await upload(owner.cookie);
      expect(r.status, r.text).toBe(302);
      const url = await pictureOf(owner.id);
      expect(url).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/);
      const stored = sim.objects.get(keyOf(url));
      expect(stored?.contentType).toBe('image/webp');
      const meta = await sharp(stored!.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);
      expect(existsSync(uploadsDir())).toBe(false);

      const file = path.basename(url ?? '');
      const served = await avatarRoute.loader({
        request: new Request(`http://localhost${url}`, { headers: { Cookie: owner.cookie } }),
        params: { file },
        context: {},
      });
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await served.arrayBuffer()).equals(stored!.bytes)).toBe(true);
    });

    it('a new picture replaces the old object; "Remove picture" deletes it', async () => {
      await upload(owner.cookie);
      const first = keyOf(await pictureOf(owner.id));
      expect((await upload(owner.cookie)).status).toBe(302);
      const second = keyOf(await pictureOf(owner.id));
      expect(second).not.toBe(first);
      expect(sim.objects.has(first)).toBe(false);
      expect(sim.objects.has(second)).toBe(true);

      const r = await callPage(profileRoute.action, '/profile', { cookie: owner.cookie, form: { intent: 'remove-picture' } });
      expect(r.status).toBe(302);
      expect(await pictureOf(owner.id)).toBeNull();
      expect(sim.objects.has(second)).toBe(false);
    });

    it('a refused file never reaches the store', async () => {
      const before = sim.requests.length;
      const r = await upload(owner.cookie, Buffer.from('<html><script>alert(1)</script></html>'), 'me.png');
      expect(r.status).toBe(415);
      expect(JSON.stringify(r.value)).toContain(PICTURE_NOT_IMAGE_DETAIL);
      expect(sim.requests.length).toBe(before);
    });

    it('a store that fails once is retried; one that stays down gives 503 and keeps the current picture', async () => {
      await upload(owner.cookie);
      const current = await pictureOf(owner.id);
      const objectsBefore = [...sim.objects.keys()].sort();

      sim.failNext(1);
      expect((await upload(owner.cookie)).status).toBe(302);
      const afterRetry = await pictureOf(owner.id);
      expect(afterRetry).not.toBe(current);

      sim.failNext(100);
      const r = await upload(owner.cookie);
      expect(r.status).toBe(503);
      expect(JSON.stringify(r.value)).toContain(STORAGE_UNAVAILABLE_DETAIL);
      expect(await pictureOf(owner.id)).toBe(afterRetry);
      // Reading it while the store is down is a 503 too, not a 500.
      const file = path.basename(afterRetry ?? '');
      expect((await callPage(avatarRoute.loader, afterRetry ?? '', { cookie: owner.cookie, params: { file } })).status).toBe(503);
      sim.failNext(0);
      expect([...sim.objects.keys()].sort()).toEqual([...objectsBefore.filter((k) => k !== keyOf(current)), keyOf(afterRetry)].sort());
    });

    it('an object gone from the bucket is a 404 on its page, not an error', async () => {
      await upload(owner.cookie);
      const url = await pictureOf(owner.id);
      sim.objects.delete(keyOf(url));
      const r = await callPage(avatarRoute.loader, url ?? '', { cookie: owner.cookie, params: { file: path.basename(url ?? '') } });
      expect(r.status).toBe(404);
    });

    it('the JSON API stores in the bucket too, and deleting the account deletes the object', async () => {
      const user = await createUser({
        email: email('bucket-api'),
        password: 'correct horse battery',
        full_name: 'Api Bucket',
        access: true,
      });
      const { access_token: token } = await issueUserToken(user.id);
      const r = await callRoute(pictureApi, { method: 'POST', token, body: new Uint8Array(png), headers: { 'Content-Type': 'image/png' } });
      expect(r.status, r.text).toBe(200);
      const key = keyOf(await pictureOf(user.id));
      expect(sim.objects.has(key)).toBe(true);

      const cookie = (await sessionCookieFor(user)).cookie;
      const del = await callPage(profileRoute.action, '/profile', {
        cookie,
        form: { intent: 'delete-account', confirmed: 'true', cancelled: 'false' },
      });
      expect(del.location).toBe('/register');
      expect(sim.objects.has(key)).toBe(false);
    });

    describe('with a wrong secret key', () => {
      beforeAll(() => {
        process.env.S3_SECRET_ACCESS_KEY = `${sim.secretAccessKey}x`;
        resetConfigForTests();
      });
      afterAll(() => {
        process.env.S3_SECRET_ACCESS_KEY = sim.secretAccessKey;
        resetConfigForTests();
      });

      it('the store refuses the signature, the user gets 503 and nothing changes', async () => {
        const before = await pictureOf(owner.id);
        const objects = sim.objects.size;
        const r = await upload(owner.cookie);
        expect(r.status).toBe(503);
        expect(sim.requests.at(-1)).toMatchObject({ method: 'PUT', status: 403 });
        expect(await pictureOf(owner.id)).toBe(before);
        expect(sim.objects.size).toBe(objects);
      });
    });
  },
  { env },
);
