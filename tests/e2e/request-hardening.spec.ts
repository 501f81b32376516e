import { mkdtempSync, rmSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { APIRequestContext } from '@playwright/test';
import fc from 'fast-check';
import { testMarket, type TestMarket } from '../support/backtest-market';
import { freePort } from '../support/free-port';
import { startAppProcess, type AppProcess } from './support/app-process';
import { E2E_APP_URL } from './support/env';
import { expect, test } from './support/fixtures';

// Whatever a client sends, the server answers with a 4xx and a message, never a 5xx: every form
// action with every kind of body and Origin, paths in other letter cases, oversized bodies,
// forwarded headers from a client that is not a proxy. And every response carries the security
// headers. Against the production server (scripts/app-server.mjs under scripts/start.mjs). About
// the server, not the browser: project js only.

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'runs in the js project only: it tests the server, once is enough');

const FORM_ACTIONS = [
  '/login',
  '/otp',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/finish-profile-creation',
  '/screener/manage',
  '/backtest',
  '/watchlist',
  '/admin',
  '/admin/users/1',
  '/profile',
  '/logout',
];

type Body = { name: string; headers: Record<string, string>; data?: string | Buffer };

const BODY_KINDS: Body[] = [
  { name: 'JSON', headers: { 'Content-Type': 'application/json' }, data: '{"email":"a@b.c","password":"x"}' },
  { name: 'broken JSON', headers: { 'Content-Type': 'application/json' }, data: '{"email":' },
  { name: 'text/plain', headers: { 'Content-Type': 'text/plain' }, data: 'email=a@b.c' },
  { name: 'no content type', headers: {}, data: Buffer.from('email=a%40b.c&password=x') },
  { name: 'empty body, no content type', headers: {} },
  { name: 'multipart without boundary', headers: { 'Content-Type': 'multipart/form-data' }, data: 'x' },
  {
    name: 'broken multipart',
    headers: { 'Content-Type': 'multipart/form-data; boundary=zzz' },
    data: '--zzz\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
  },
  { name: 'multipart, wrong boundary', headers: { 'Content-Type': 'multipart/form-data; boundary=abc' }, data: '--xyz--\r\n' },
  { name: 'urlencoded garbage', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: '%%%&&==%zz&intent=%ff' },
  { name: 'XML', headers: { 'Content-Type': 'application/xml' }, data: '<a/>' },
  { name: 'octet-stream', headers: { 'Content-Type': 'application/octet-stream' }, data: Buffer.from([0, 255, 1, 254]) },
];

const ORIGINS = ['https://evil.example', 'null', 'not a url', `${E2E_APP_URL}.evil.example`];

const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options'];

async function post(request: APIRequestContext, path: string, body: Body, extra: Record<string, string> = {}) {
  const response = await request.fetch(path, {
    method: 'POST',
    headers: { ...body.headers, ...extra },
    data: body.data,
    maxRedirects: 0,
    failOnStatusCode: false,
  });
  return { status: response.status(), text: await response.text(), headers: response.headers() };
}

async function assertNo5xx(request: APIRequestContext) {
  const failures: string[] = [];
  for (const path of FORM_ACTIONS) {
    for (const body of BODY_KINDS) {
      const answer = await post(request, path, body);
      if (answer.status >= 500) failures.push(`${body.name} to ${path}: ${answer.status}`);
      // A form the page cannot read is refused before any action runs, with a message.
      if (body.name !== 'urlencoded garbage' && body.name !== 'broken multipart' && body.name !== 'multipart, wrong boundary') {
        if (![400, 415].includes(answer.status)) failures.push(`${body.name} to ${path}: ${answer.status}, expected 400 or 415`);
        else if (!/multipart\/form-data|could not be read/.test(answer.text)) failures.push(`${body.name} to ${path}: no message`);
      }
    }
    for (const origin of ORIGINS) {
      const answer = await post(request, path, BODY_KINDS[0], { Origin: origin });
      if (answer.status !== 403) failures.push(`Origin ${origin} to ${path}: ${answer.status}, expected 403`);
      const form = await post(
        request,
        path,
        { name: 'form', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: 'intent=x' },
        { Origin: origin },
      );
      if (form.status !== 403) failures.push(`form with Origin ${origin} to ${path}: ${form.status}, expected 403`);
      else expect(form.text).toContain('This form was sent from another site and was refused.');
    }
  }
  expect(failures).toEqual([]);
}

test('every body kind and Origin posted to every form action: 4xx with a message, never 5xx (anonymous)', async ({ playwright }) => {
  test.setTimeout(120_000);
  const request = await playwright.request.newContext({ baseURL: E2E_APP_URL });
  await assertNo5xx(request);
  await request.dispose();
});

test('every body kind and Origin posted to every form action: never 5xx (signed-in superuser)', async ({ page, createUser, signIn }) => {
  test.setTimeout(120_000);
  const user = await createUser({ access: true, superuser: true });
  await signIn(page, user.email, user.password);
  await assertNo5xx(page.request);
});

test('random bodies and media types to random form actions never answer 5xx', async ({ request }) => {
  test.setTimeout(120_000);
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...FORM_ACTIONS),
      fc.constantFrom(
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=b',
        'multipart/form-data',
        'text/plain',
        '',
        'application/json',
        ';;;',
        'multipart/form-data; boundary=',
      ),
      fc.uint8Array({ maxLength: 400 }),
      async (path, type, bytes) => {
        const answer = await post(request, path, {
          name: 'random',
          headers: type ? { 'Content-Type': type } : {},
          data: Buffer.from(bytes),
        });
        expect(answer.status, `${type || '(none)'} to ${path}`).toBeLessThan(500);
      },
    ),
    { numRuns: 60 },
  );
});

test('a path in another letter case or with encoded letters redirects to the route as written; unknown stays 404', async ({
  page,
  createUser,
  signIn,
}) => {
  const user = await createUser({ access: true });
  await signIn(page, user.email, user.password);
  for (const [path, canonical] of [
    ['/ADMIN', '/admin'],
    ['/Admin', '/admin'],
    ['/%61dmin', '/admin'],
    ['/BACKTEST', '/backtest'],
    ['/Backtest/Methodology?x=1', '/backtest/methodology?x=1'],
    ['/WATCHLIST', '/watchlist'],
  ]) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(301);
    expect(response.headers()['location'], path).toBe(canonical);
    for (const name of SECURITY_HEADERS) expect(response.headers()[name], `${name} on ${path}`).toBeTruthy();
    // Followed, it answers as the canonical path does (the admin page refuses a non-superuser).
    const followed = await page.request.get(path);
    const direct = await page.request.get(canonical);
    expect(followed.status(), path).toBe(direct.status());
    expect(followed.status(), path).toBeLessThan(500);
  }
  expect((await page.request.get('/NO-SUCH-PAGE', { maxRedirects: 0 })).status()).toBe(404);
  // A post keeps its method and body across the redirect (308).
  const moved = await page.request.post('/LOGIN', { form: { email: 'a@b.c' }, maxRedirects: 0 });
  expect(moved.status()).toBe(308);
});

test('redirects, CSV downloads, JSON and files carry the security headers', async ({ page, request, createUser, signIn }) => {
  const anonymous = await request.get('/backtest', { maxRedirects: 0 });
  expect(anonymous.status()).toBe(302);
  const user = await createUser({ access: true });
  await signIn(page, user.email, user.password);
  const answers = [
    anonymous,
    await page.request.get('/watchlist/csv'),
    await request.get('/api/v1/metrics'),
    await request.get('/favicon.svg'),
    await request.get('/no-such-page'),
  ];
  for (const response of answers) {
    for (const name of SECURITY_HEADERS)
      expect(response.headers()[name], `${name} on ${response.url()} (${response.status()})`).toBeTruthy();
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
  }
  expect(answers[1].headers()['content-type']).toContain('text/csv');
});

/** What a proxy on this machine adds to the requests it forwards: its client is elsewhere. */
const FORWARDED = { 'X-Forwarded-For': '203.0.113.7' };

test('JSON answers say their length: a small one goes as it is, a large one compressed', async () => {
  const headers = { 'Accept-Encoding': 'gzip', ...FORWARDED };
  const small = await fetch(`${E2E_APP_URL}/api/v1/auth/me`, { headers });
  expect(small.status).toBe(401);
  const text = await small.text();
  expect(small.headers.get('content-encoding')).toBeNull();
  expect(small.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  expect(JSON.parse(text)).toHaveProperty('detail');
  const large = await fetch(`${E2E_APP_URL}/api/openapi.json`, { headers });
  expect(large.status).toBe(200);
  expect(large.headers.get('content-encoding')).toBe('gzip');
  expect(Object.keys(((await large.json()) as { paths: object }).paths).length).toBeGreaterThan(20);
});

/** A GET with this Accept-Encoding (and these headers), its body as the bytes sent (no decoding). */
function rawGet(
  url: string,
  acceptEncoding: string,
  headers: Record<string, string> = FORWARDED,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': acceptEncoding, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

test('a large JSON answer is compressed in one piece, as brotli or gzip as the client accepts, and reads back whole', async () => {
  const url = `${E2E_APP_URL}/api/openapi.json`;
  const plain = await rawGet(url, 'identity');
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.headers['content-length']).toBe(String(plain.body.length));
  // Both refused: as it is.
  expect((await rawGet(url, 'gzip;q=0, br;q=0')).headers['content-encoding']).toBeUndefined();
  const json = JSON.parse(plain.body.toString('utf8')) as unknown;
  const decoders = { br: brotliDecompressSync, gzip: gunzipSync };
  for (const [accept, expected] of [
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
  ] as const) {
    const packed = await rawGet(url, accept);
    expect(packed.headers['content-encoding']).toBe(expected);
    // One piece: its length is known before it is sent (a streamed answer is chunked).
    expect(packed.headers['content-length']).toBe(String(packed.body.length));
    expect(packed.headers['transfer-encoding']).toBeUndefined();
    expect(packed.headers.vary).toMatch(/Accept-Encoding/i);
    expect(packed.body.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(decoders[expected](packed.body).toString('utf8'))).toEqual(json);
  }
});

test('a client on the same machine, not behind a proxy, is answered uncompressed whatever it accepts', async () => {
  // The test runner is on the server's machine: with no proxy header its requests are local.
  for (const url of [`${E2E_APP_URL}/api/openapi.json`, `${E2E_APP_URL}/login`]) {
    const local = await rawGet(url, 'gzip, deflate, br', {});
    expect(local.status).toBe(200);
    expect(local.headers['content-encoding']).toBeUndefined();
    // Read as sent: the plain text itself.
    expect(local.body.toString('utf8')).toMatch(url.endsWith('.json') ? /^\{"/ : /^<!DOCTYPE html>/i);
    // The same request through a proxy (any of the headers one adds) is compressed.
    const proxies: Record<string, string>[] = [FORWARDED, { Via: '1.1 proxy.example' }, { Forwarded: 'for=203.0.113.7' }];
    for (const proxied of proxies) {
      expect((await rawGet(url, 'gzip', proxied)).headers['content-encoding']).toBe('gzip');
    }
  }
});

test('a body over the limit gets its 413, not a reset connection', async () => {
  // fetch (undici) sends the whole body before it reads the answer: a server that cuts the
  // connection instead of reading the rest makes it fail with ECONNRESET.
  const big = new URLSearchParams({ email: 'a@b.c', password: 'x'.repeat(3 * 1024 * 1024) }).toString();
  const response = await fetch(`${E2E_APP_URL}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: big,
    redirect: 'manual',
  });
  expect(response.status).toBe(413);
  expect(await response.text()).toContain('The form is too large.');
  // Far over: the app stops reading at its limit, the server drops the rest after the answer.
  const huge = await fetch(`${E2E_APP_URL}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new Uint8Array(100 * 1024 * 1024).fill(97),
    redirect: 'manual',
  });
  expect(huge.status).toBe(413);
  await huge.text();
});

test('X-Forwarded-Host is not trusted without TRUST_PROXY', async ({ request }) => {
  // A client naming the host its forged Origin needs: the Host header decides.
  const forged = await request.post('/login', {
    form: { email: 'a@b.c', password: 'x' },
    headers: { Origin: 'https://evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  // Redirects are not sent to the forwarded host either.
  const redirect = await request.get('/backtest', { headers: { 'X-Forwarded-Host': 'evil.example' }, maxRedirects: 0 });
  expect(redirect.headers()['location'] ?? '').not.toContain('evil.example');
  // A same-site post with a forwarded host of its own still works.
  const fine = await request.post('/forgot-password', {
    form: { email: 'nobody@example.com' },
    headers: { Origin: E2E_APP_URL, 'X-Forwarded-Host': 'evil.example' },
    maxRedirects: 0,
  });
  expect(fine.status()).toBeLessThan(500);
  expect(fine.status()).not.toBe(403);
});

test('a Host header that names no host is a 400', async () => {
  const http = await import('node:http');
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(`${E2E_APP_URL}/login`, { headers: { Host: 'a b<>' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
  expect(status).toBe(400);
});

test.describe('behind a proxy (TRUST_PROXY=1)', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'runs in the js project only: it tests the server, once is enough');

  let market: TestMarket | undefined;
  let dataDir = '';
  let app: AppProcess | undefined;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    market = testMarket({ companies: 10, years: 2, seed: 5 });
    await market.build();
    dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-proxy-'));
    app = await startAppProcess(await freePort(), {
      DATA_DIR: dataDir,
      MARKET_DB: market.file,
      SESSION_SECRET: 'proxy-spec-not-a-secret',
      TRUST_PROXY: '1',
    });
  });
  test.afterAll(async () => {
    await app?.stop();
    market?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (headers: Record<string, string>) =>
    fetch(`${app!.url}/forgot-password`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: 'email=nobody%40example.com',
      redirect: 'manual',
    });

  test('the forwarded host is the request’s: the proxy’s origin is same-site, the app’s own address is not', async () => {
    const proxied = { 'X-Forwarded-Host': 'Quarry.Example', 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.7' };
    const fromProxy = await post({ ...proxied, Origin: 'https://quarry.example' });
    expect(fromProxy.status).toBeLessThan(500);
    expect(fromProxy.status).not.toBe(403);
    // The host the browser used is the proxy's: a post naming the app's own address comes from elsewhere.
    expect((await post({ ...proxied, Origin: app!.url })).status).toBe(403);
    // Without a forwarded host, the Host header decides again.
    expect((await post({ Origin: 'https://quarry.example' })).status).toBe(403);
    expect((await post({ Origin: app!.url })).status).not.toBe(403);
    // A forwarded host that names no host is refused like a bad Host header.
    expect((await post({ 'X-Forwarded-Host': 'a b<>', Origin: 'https://quarry.example' })).status).toBe(400);
  });
});
