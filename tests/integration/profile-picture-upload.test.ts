import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as profileRoute from '~/routes/_app.profile';
import * as meApi from '~/routes/api.v1.auth.me';
import * as pictureApi from '~/routes/api.v1.auth.me.picture';
import * as avatarRoute from '~/routes/uploads.avatars.$file';
import { sniffPictureFormat } from '~/services/auth/picture-image.server';
import { picturesDir } from '~/services/auth/picture-store.server';
import {
  PICTURE_DAMAGED_DETAIL,
  PICTURE_EMPTY_DETAIL,
  PICTURE_FORM_MAX_BYTES,
  PICTURE_MAX_BYTES,
  PICTURE_MISSING_DETAIL,
  PICTURE_NAME_DETAIL,
  PICTURE_NOT_IMAGE_DETAIL,
  PICTURE_TOO_LARGE_DETAIL,
} from '~/services/auth/profile-forms';
import { resetRateLimitsForTests } from '~/services/auth/rate-limit.server';
import { issueUserToken } from '~/services/auth/tokens.server';
import { createUser, getUserById } from '~/services/auth/users.server';
import { callRoute } from '../support/api';
import { forEachDatabase } from '../support/databases';
import { callPage, sessionCookieFor } from '../support/pages';

// Profile picture uploads through the real profile action (multipart, as a browser sends it) and
// the JSON API: hostile files, names and sizes are refused with a clear 4xx and nothing is
// written; a real picture is re-encoded to a 256 × 256 WebP without metadata and served only to
// its owner with safe headers. Fixtures are made with sharp here, not committed.

let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;

type Part = { name: string; value: string } | { name: string; filename: string; type?: string; bytes: Uint8Array };

/** A multipart/form-data body written by hand, so names and types are exactly what a hostile client sends. */
function multipart(parts: Part[]): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const boundary = `----quarry-test-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`, 'latin1'));
    if ('value' in p) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`, 'utf8'));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
          'utf8',
        ),
      );
      chunks.push(Buffer.from(p.bytes));
      chunks.push(Buffer.from('\r\n', 'latin1'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return { body: new Uint8Array(Buffer.concat(chunks)), contentType: `multipart/form-data; boundary=${boundary}` };
}

function base(width = 300, height = 200) {
  const circle = Buffer.from(
    `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#1d4ed8"/></svg>`,
  );
  return sharp({ create: { width, height, channels: 3, background: { r: 220, g: 80, b: 30 } } }).composite([{ input: circle }]);
}

/** A PNG whose header claims width × height (CRC fixed up, so only the size gives it away). */
function pngClaiming(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)) >>> 0, 29);
  return out;
}

/** Every file under the uploads folder, temporary ones included. */
function uploadsListing(): string[] {
  const dir = path.dirname(picturesDir());
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).map(String).sort();
}

type Fixtures = { png: Buffer; jpeg: Buffer; webp: Buffer; gif: Buffer; jpegWithExif: Buffer };

forEachDatabase('profile picture uploads', () => {
  let fx: Fixtures;
  let owner: { id: string; cookie: string };

  beforeAll(async () => {
    fx = {
      png: await base().png().toBuffer(),
      jpeg: await base().jpeg().toBuffer(),
      webp: await base().webp().toBuffer(),
      gif: await base().gif().toBuffer(),
      jpegWithExif: await base(400, 300)
        .jpeg()
        .withExif({ IFD0: { Copyright: 'Secret Photographer', ImageDescription: 'home address' } })
        .toBuffer(),
    };
    const user = await createUser({ email: email('pic'), password: 'correct horse battery', full_name: 'Pic Owner', access: true });
    owner = { id: user.id, cookie: (await sessionCookieFor(user)).cookie };
  });
  beforeEach(() => {
    resetRateLimitsForTests();
  });

  async function upload(parts: Part[], cookie = owner.cookie) {
    const { body, contentType } = multipart(parts);
    return callPage(profileRoute.action, '/profile', {
      cookie,
      body,
      headers: { 'Content-Type': contentType, 'Content-Length': String(body.byteLength) },
    });
  }

  const picture = (bytes: Uint8Array, filename = 'me.png', type = 'image/png'): Part[] => [
    { name: 'intent', value: 'upload-picture' },
    { name: 'picture', filename, type, bytes },
  ];

  /** The error answer of the picture form: status and every message shown. */
  function messages(outcome: { value: unknown }): string {
    const v = outcome.value as { initialValue?: { intent?: string }; error?: Record<string, string[] | null> };
    expect(v.initialValue?.intent).toBe('upload-picture');
    return Object.values(v.error ?? {})
      .flatMap((e) => e ?? [])
      .join(' ');
  }

  async function expectRefused(parts: Part[], status: number, message: string): Promise<void> {
    const before = uploadsListing();
    const picBefore = (await getUserById(owner.id)).profile_picture;
    const r = await upload(parts);
    expect(r.status, r.text).toBe(status);
    expect(messages(r)).toContain(message);
    expect(uploadsListing()).toEqual(before);
    expect((await getUserById(owner.id)).profile_picture).toBe(picBefore);
  }

  describe('refused uploads (nothing written, picture unchanged)', () => {
    it('truncated PNG, JPEG and WebP files', async () => {
      for (const [name, bytes] of [
        ['png', fx.png],
        ['jpeg', fx.jpeg],
        ['webp', fx.webp],
      ] as const) {
        for (const keep of [0.999, 0.97, 0.6, 0.2]) {
          const cut = bytes.subarray(0, Math.floor(bytes.length * keep));
          await expectRefused(picture(cut, `cut.${name}`, `image/${name}`), 400, PICTURE_DAMAGED_DETAIL);
        }
      }
      // Only the last bytes missing (libpng alone would accept these): still incomplete.
      for (const missing of [1, 4, 12])
        await expectRefused(picture(fx.png.subarray(0, fx.png.length - missing)), 400, PICTURE_DAMAGED_DETAIL);
      for (const missing of [1, 2])
        await expectRefused(picture(fx.jpeg.subarray(0, fx.jpeg.length - missing), 'cut.jpg', 'image/jpeg'), 400, PICTURE_DAMAGED_DETAIL);
    });

    it('files that are not PNG, JPEG or WebP, whatever their name and type say', async () => {
      await expectRefused(picture(Buffer.from('just some text, not a picture\n'), 'x.png', 'image/png'), 415, PICTURE_NOT_IMAGE_DETAIL);
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
      );
      await expectRefused(picture(svg, 'face.svg', 'image/svg+xml'), 415, PICTURE_NOT_IMAGE_DETAIL);
      await expectRefused(picture(svg, 'face.png', 'image/png'), 415, PICTURE_NOT_IMAGE_DETAIL);
      await expectRefused(picture(fx.gif, 'anim.gif', 'image/gif'), 415, PICTURE_NOT_IMAGE_DETAIL);
      await expectRefused(picture(fx.gif, 'anim.png', 'image/png'), 415, PICTURE_NOT_IMAGE_DETAIL);
      const html = Buffer.from('<!doctype html><html><body><script>document.cookie</script></body></html>');
      await expectRefused(picture(html, 'page.html', 'text/html'), 415, PICTURE_NOT_IMAGE_DETAIL);
      await expectRefused(picture(html, 'page.jpg', 'image/jpeg'), 415, PICTURE_NOT_IMAGE_DETAIL);
      // The right magic bytes followed by garbage.
      const fakePng = Buffer.concat([fx.png.subarray(0, 8), Buffer.alloc(200, 0x41)]);
      await expectRefused(picture(fakePng), 400, PICTURE_DAMAGED_DETAIL);
    });

    it('zero bytes and a form without a file', async () => {
      await expectRefused(picture(new Uint8Array(0), 'empty.png'), 400, PICTURE_EMPTY_DETAIL);
      await expectRefused([{ name: 'intent', value: 'upload-picture' }], 400, PICTURE_MISSING_DETAIL);
    });

    it('a PNG whose header claims 100000 × 100000 pixels (decompression bomb) and one too wide', async () => {
      await expectRefused(picture(pngClaiming(fx.png, 100_000, 100_000)), 422, 'more than 4096 × 4096 pixels');
      const wide = await base(5000, 10).png().toBuffer();
      await expectRefused(picture(wide), 422, 'The picture is 5000 × 10 pixels; the most is 4096 × 4096.');
    });

    it('files over 5 MB, just over the limit and far over it', async () => {
      const justOver = Buffer.concat([fx.png, Buffer.alloc(PICTURE_MAX_BYTES + 1 - fx.png.length, 0)]);
      await expectRefused(picture(justOver), 400, PICTURE_TOO_LARGE_DETAIL);
      const farOver = Buffer.concat([fx.png, Buffer.alloc(8 * 1024 * 1024, 0)]);
      await expectRefused(picture(farOver), 413, PICTURE_TOO_LARGE_DETAIL);
    });

    it('an oversized body without Content-Length is cut off while streaming, not read whole', async () => {
      const before = uploadsListing();
      const head = multipart(picture(fx.png)).body.slice(0, 400);
      let sent = 0;
      const chunk = new Uint8Array(1024 * 1024);
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(head);
          else controller.enqueue(chunk);
          sent += sent === 0 ? head.byteLength : chunk.byteLength;
        },
      });
      const own = /^--(\S+)\r\n/.exec(Buffer.from(head).toString('latin1'))?.[1];
      const r = await callPage(profileRoute.action, '/profile', {
        cookie: owner.cookie,
        body: endless,
        headers: { 'Content-Type': `multipart/form-data; boundary=${own}` },
      });
      expect(r.status).toBe(413);
      expect(messages(r)).toContain(PICTURE_TOO_LARGE_DETAIL);
      // Reading stops at the limit (the server drops the rest after the answer): never the whole body.
      expect(sent).toBeLessThanOrEqual(PICTURE_FORM_MAX_BYTES + 4 * chunk.byteLength);
      expect(uploadsListing()).toEqual(before);
    });

    it('file names with path tricks, NUL and control characters, even on a real picture', async () => {
      for (const name of ['../../etc/passwd.png', '..\\..\\boot.ini.png', '/etc/passwd.png', 'a\u0000b.png', 'tab\there.png', '..']) {
        await expectRefused(picture(fx.png, name), 400, PICTURE_NAME_DETAIL);
      }
    });

    it('a form that is not a form at all, and a broken multipart body', async () => {
      const json = await callPage(profileRoute.action, '/profile', {
        cookie: owner.cookie,
        body: '{"intent":"upload-picture"}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(json.status).toBe(415);
      const broken = await callPage(profileRoute.action, '/profile', {
        cookie: owner.cookie,
        body: '--nope\r\ngarbage',
        headers: { 'Content-Type': 'multipart/form-data; boundary=zzz' },
      });
      expect(broken.status).toBe(400);
      expect(messages(broken)).toMatch(/could not be read/);
    });
  });

  describe('accepted pictures', () => {
    it('re-encodes PNG, JPEG and WebP to a 256 × 256 WebP without metadata, replacing the previous file', async () => {
      let previous: string | null = null;
      for (const [bytes, name] of [
        [fx.png, 'me.png'],
        [fx.jpegWithExif, 'photo.jpg'],
        [fx.webp, 'x.webp'],
      ] as const) {
        // The client's type is ignored: the bytes decide.
        const r = await upload(picture(bytes, name, 'application/octet-stream'));
        expect(r.status, r.text).toBe(302);
        expect(r.location).toBe('/profile');
        const user = await getUserById(owner.id);
        expect(user.profile_picture).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/);
        const file = path.join(picturesDir(), path.basename(user.profile_picture ?? ''));
        const meta = await sharp(file).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);
        expect(meta.exif).toBeUndefined();
        expect(meta.icc).toBeUndefined();
        expect(readdirSync(picturesDir())).toEqual([path.basename(file)]);
        if (previous) expect(existsSync(previous)).toBe(false);
        previous = file;
      }
    });

    it('serves the picture to its owner with safe headers; 404 for other accounts and other names', async () => {
      await upload(picture(fx.png));
      const url = (await getUserById(owner.id)).profile_picture ?? '';
      const file = path.basename(url);
      const r = await callPage(avatarRoute.loader, url, { cookie: owner.cookie, params: { file } });
      expect(r.status).toBe(200);
      const served = await avatarRoute.loader({
        request: new Request(`http://localhost${url}`, { headers: { Cookie: owner.cookie } }),
        params: { file },
        context: {},
      });
      expect(Object.fromEntries(served.headers)).toMatchObject({
        'content-type': 'image/webp',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'cross-origin-resource-policy': 'same-origin',
        'cache-control': 'private, max-age=31536000, immutable',
      });
      expect(sniffPictureFormat(new Uint8Array(await served.arrayBuffer()))).toBe('webp');

      const other = await createUser({ email: email('other'), password: 'correct horse battery', full_name: 'Someone Else', access: true });
      const otherCookie = (await sessionCookieFor(other)).cookie;
      expect((await callPage(avatarRoute.loader, url, { cookie: otherCookie, params: { file } })).status).toBe(404);
      for (const bad of [
        '../quarry.sqlite',
        '..%2Fquarry.sqlite',
        `${file.slice(0, -5)}.png`,
        file.toUpperCase(),
        `${file}x`,
        'secrets.json',
      ]) {
        expect(
          (await callPage(avatarRoute.loader, `/uploads/avatars/${bad}`, { cookie: owner.cookie, params: { file: bad } })).status,
          bad,
        ).toBe(404);
      }
      // Without a session the picture is not shown at all (sent to sign in or to get a guest token).
      expect((await callPage(avatarRoute.loader, url, { params: { file } })).status).toBe(302);
    });

    it('"Remove picture" clears it and deletes the file', async () => {
      await upload(picture(fx.png));
      const file = path.join(picturesDir(), path.basename((await getUserById(owner.id)).profile_picture ?? ''));
      expect(existsSync(file)).toBe(true);
      const r = await callPage(profileRoute.action, '/profile', { cookie: owner.cookie, form: { intent: 'remove-picture' } });
      expect(r.status).toBe(302);
      expect((await getUserById(owner.id)).profile_picture).toBeNull();
      expect(existsSync(file)).toBe(false);
    });
  });

  describe('JSON API: POST/DELETE /api/v1/auth/me/picture', () => {
    it('takes the picture as the body and refuses the same hostile files with {"detail"}', async () => {
      const user = await createUser({ email: email('api'), password: 'correct horse battery', full_name: 'Api Pic', access: true });
      const { access_token: token } = await issueUserToken(user.id);
      const before = uploadsListing();
      for (const [bytes, status, detail] of [
        [Buffer.from('hello'), 415, PICTURE_NOT_IMAGE_DETAIL],
        [fx.png.subarray(0, 300), 400, PICTURE_DAMAGED_DETAIL],
        [pngClaiming(fx.png, 100_000, 100_000), 422, /more than 4096/],
        [Buffer.alloc(0), 400, /empty/],
        [Buffer.alloc(PICTURE_MAX_BYTES + 70 * 1024), 413, PICTURE_TOO_LARGE_DETAIL],
      ] as const) {
        const r = await callRoute(pictureApi, {
          method: 'POST',
          token,
          body: new Uint8Array(bytes),
          headers: { 'Content-Type': 'image/png' },
        });
        expect(r.status, r.text).toBe(status);
        if (typeof detail === 'string') expect((r.body as { detail: string }).detail).toBe(detail);
        else expect((r.body as { detail: string }).detail).toMatch(detail);
      }
      expect(uploadsListing()).toEqual(before);

      const ok = await callRoute(pictureApi, {
        method: 'POST',
        token,
        body: new Uint8Array(fx.jpeg),
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(ok.status, ok.text).toBe(200);
      const url = (ok.body as { profile_picture: string }).profile_picture;
      expect(url).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/);
      expect(existsSync(path.join(picturesDir(), path.basename(url)))).toBe(true);
      const removed = await callRoute(pictureApi, { method: 'DELETE', token });
      expect(removed.status).toBe(200);
      expect((removed.body as { profile_picture: unknown }).profile_picture).toBeNull();
      expect(existsSync(path.join(picturesDir(), path.basename(url)))).toBe(false);

      // PATCH /api/v1/auth/me replacing an uploaded picture by an address does not keep the file.
      const again = await callRoute(pictureApi, { method: 'POST', token, body: new Uint8Array(fx.webp) });
      const stored = path.join(picturesDir(), path.basename((again.body as { profile_picture: string }).profile_picture));
      expect(existsSync(stored)).toBe(true);
      const patched = await callRoute(meApi, { method: 'PATCH', token, json: { profile_picture: 'https://pictures.example/me.png' } });
      expect(patched.status, patched.text).toBe(200);
      expect(existsSync(stored)).toBe(false);
      // …and the API cannot point the picture at a stored file (someone else's, say).
      const sneaky = await callRoute(meApi, { method: 'PATCH', token, json: { profile_picture: url } });
      expect(sneaky.status).toBe(422);

      expect((await callRoute(pictureApi, { method: 'POST', body: new Uint8Array(fx.png) })).status).toBe(401);
      expect((await callRoute(pictureApi, { method: 'GET', token })).status).toBe(405);
    });
  });
});
