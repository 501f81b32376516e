import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext } from '@playwright/test';
import { createCookie } from '@remix-run/node';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { GUESS_LIMITS } from '../../app/services/auth/guessing-limits.server';
import { ruleFromText, ScreenSchema } from '../../app/services/screener/model';
import { testMarket, type TestMarket } from '../support/backtest-market';
import { createPostgresSchema } from '../support/postgres-schema';
import { startS3Simulator, type S3Simulator } from '../support/s3';
import { startAppProcess, e2eSmtpUrl, type AppProcess } from './support/app-process';
import { E2E_EXTRA_APP_PORTS } from './support/env';
import { acknowledgeInfo } from './support/page-helpers';
import { type Mailbox } from './support/mailbox';
import { expect, test, uniqueEmail } from './support/fixtures';
import { createUser, type TestUser } from './support/users';

// The production shape of README "Running for many users": two app processes on one PostgreSQL
// and one Redis, as behind a load balancer. A is web only (JOBS_IN_APP=0), B runs the in-app job
// worker. A session, a rate limit and a job cross between them. It is about the servers, not the
// browser, so it runs once (project js) and only when DATABASE_URL and REDIS_URL are set.
// Profile pictures go to one S3-compatible bucket (a local store speaking S3's wire format and
// checking SigV4), so a picture uploaded through A is served by B.

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

const UNSET = !DATABASE_URL || !REDIS_URL ? ' (skipped: set DATABASE_URL=postgres://… and REDIS_URL=redis://… to run it)' : '';

test.describe(`two app processes on one PostgreSQL and Redis${UNSET}`, () => {
  test.skip(UNSET !== '', UNSET.trim());
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'runs in the js project only: it tests the servers, once is enough');
  test.describe.configure({ mode: 'serial' });

  const run = randomBytes(4).toString('hex');
  const JOBS_QUEUE_PREFIX = `quarry-e2e-${run}`;
  const SESSION_SECRET = `many-users-${run}-not-a-secret`;

  let schema: { url: string; drop: () => Promise<void> } | undefined;
  let market: TestMarket | undefined;
  let appA: AppProcess | undefined;
  let appB: AppProcess | undefined;
  let queue: Queue | undefined;
  let bucket: S3Simulator | undefined;
  let user: TestUser;
  const dataDirs: string[] = [];

  function freshDataDir(): string {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-many-users-'));
    dataDirs.push(dataDir);
    return dataDir;
  }

  function appEnv(jobsInApp: boolean, smtpUrl: string): Record<string, string> {
    return {
      DATABASE_URL: schema!.url,
      REDIS_URL: REDIS_URL!,
      SESSION_SECRET,
      MARKET_DB: market!.file,
      JOBS_QUEUE_PREFIX,
      JOBS_IN_APP: jobsInApp ? '1' : '0',
      // Each process has its own DATA_DIR: nothing in it is shared, so nothing may depend on it.
      DATA_DIR: freshDataDir(),
      SMTP_URL: smtpUrl,
      MAIL_FROM: 'Quarry many-users <no-reply@quarry.test>',
      S3_BUCKET: bucket!.bucket,
      S3_ACCESS_KEY_ID: bucket!.accessKeyId,
      S3_SECRET_ACCESS_KEY: bucket!.secretAccessKey,
      S3_ENDPOINT: bucket!.url,
      S3_REGION: bucket!.region,
    };
  }

  let smtpUrl = '';

  /** B starts only when a test needs it, so the job test can first show that A runs no job. */
  async function processB(): Promise<AppProcess> {
    appB ??= await startAppProcess(E2E_EXTRA_APP_PORTS[1], appEnv(true, smtpUrl));
    return appB;
  }

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    market = testMarket({ companies: 30, years: 3, seed: 21 });
    const created = await createPostgresSchema(DATABASE_URL!, 'e2e_many_users');
    schema = { url: created.url, drop: created.drop };
    smtpUrl = await e2eSmtpUrl();
    bucket = await startS3Simulator();
    const cliEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      DATABASE_URL: schema.url,
      DATA_DIR: freshDataDir(),
    };
    // The account is made (migrating the fresh schema) while the market is built; migrations of
    // the CLI and of A's start take turns under Kysely's migration lock.
    [user] = await Promise.all([
      createUser({ email: uniqueEmail('many'), name: 'Mia Many', access: true }, cliEnv),
      market.build().then(async () => {
        appA = await startAppProcess(E2E_EXTRA_APP_PORTS[0], appEnv(false, smtpUrl));
      }),
    ]);
    queue = new Queue('jobs', { connection: new Redis(REDIS_URL!, { maxRetriesPerRequest: null }), prefix: JOBS_QUEUE_PREFIX });
  });

  test.afterAll(async () => {
    await Promise.all([appA?.stop(), appB?.stop()]);
    if (queue) {
      // The queue's keys live under this run's own prefix: leave nothing behind in Redis.
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
    }
    await schema?.drop();
    await bucket?.close();
    market?.remove();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  type Json = Record<string, unknown>;

  /** The JSON API's two-step sign-in; the code can be checked by another process than the one that sent it. */
  async function apiToken(request: APIRequestContext, mailbox: Mailbox, passwordOn: AppProcess, codeOn: AppProcess) {
    const after = Date.now() - 1_000;
    const started = await request.post(`${passwordOn.url}/api/v1/auth/signin`, { data: { email: user.email, password: user.password } });
    expect(started.status(), await started.text()).toBe(200);
    const code = await mailbox.latestCode(user.email, { after });
    const verified = await request.post(`${codeOn.url}/api/v1/auth/signin/otp/verify`, { data: { email: user.email, token: code } });
    expect(verified.status(), await verified.text()).toBe(200);
    const body = (await verified.json()) as { access_token: string; token_type: string };
    return `${body.token_type} ${body.access_token}`;
  }

  const screen = ScreenSchema.parse({ rules: [ruleFromText('price > 1')], ranking: [{ metric: 'ret_3m', direction: 'desc', weight: 1 }] });

  test('a job posted on A (web only) waits for a worker, and B’s in-app worker runs it', async ({ request, mailbox }) => {
    const a = appA!;
    const authorization = await apiToken(request, mailbox, a, a);
    const headers = { Authorization: authorization };
    expect(await queue!.getWorkersCount(), 'A (JOBS_IN_APP=0) registers no BullMQ worker').toBe(0);

    const posted = await request.post(`${a.url}/api/v1/backtests`, {
      // At once, not after the POST's default wait: nobody runs it yet.
      headers: { ...headers, Prefer: 'respond-async' },
      data: { screen, params: { start: '2000-01-03', end: '2099-12-31', rebalance: 'quarterly', topN: 5 }, name: 'Crossing' },
    });
    expect(posted.status(), await posted.text()).toBe(202);
    const id = ((await posted.json()) as { id: string }).id;
    const status = async () => ((await (await request.get(`${a.url}/api/v1/backtests/${id}`, { headers })).json()) as Json).status;

    // With only A up, nobody takes it (a worker would claim it within milliseconds of the enqueue).
    for (let i = 0; i < 8; i++) {
      expect(await status()).toBe('queued');
      await new Promise((r) => setTimeout(r, 250));
    }

    await processB();
    await expect.poll(() => queue!.getWorkersCount(), { message: 'B registers one BullMQ worker' }).toBe(1);
    await expect.poll(status, { timeout: 60_000, message: `backtest ${id} run by B’s worker` }).toBe('succeeded');
    const done = (await (await request.get(`${a.url}/api/v1/backtests/${id}`, { headers })).json()) as Json & {
      result: { equity: number[] };
    };
    expect(done.name).toBe('Crossing');
    expect(done.result.equity.length).toBeGreaterThan(10);
  });

  test('a session started on A is valid on B: the signed cookie and the API token', async ({ browser, request, mailbox, signIn }) => {
    const a = appA!;
    const b = await processB();
    const context = await browser.newContext({ baseURL: a.url });
    try {
      const page = await context.newPage();
      await signIn(page, user.email, user.password);
      expect(new URL(page.url()).port).toBe(String(a.port));

      // Same host, other port: the browser sends the same cookie, as it would to any process behind one load balancer.
      await page.goto(`${b.url}/profile`);
      await expect(page).toHaveURL(`${b.url}/profile`);
      await expect(page.getByTestId('profile-name')).toHaveText(user.name);

      // The cookie is only as good as its signature: the same session signed with another secret
      // (another deployment, or a forger) is a stranger's; signed with SESSION_SECRET it is ours.
      const session = (await context.cookies(b.url)).find((c) => c.name === '__session');
      expect(session, 'the session cookie').toBeDefined();
      const data: unknown = await createCookie('__session', { secrets: [SESSION_SECRET] }).parse(`__session=${session!.value}`);
      expect(data, 'the cookie parses with SESSION_SECRET').toBeTruthy();
      const signedWith = async (secret: string) => {
        const header = await createCookie('__session', { secrets: [secret], path: '/' }).serialize(data);
        const other = await browser.newContext();
        await other.addCookies([{ ...session!, value: header.slice('__session='.length).split(';')[0] }]);
        const visitor = await other.newPage();
        await visitor.goto(`${b.url}/profile`);
        const landed = new URL(visitor.url()).pathname;
        await other.close();
        return landed;
      };
      expect(await signedWith('another-deployments-secret')).toBe('/login');
      expect(await signedWith(SESSION_SECRET)).toBe('/profile');
    } finally {
      await context.close();
    }

    // The API: password on B, the mailed code on A, the token on B.
    const authorization = await apiToken(request, mailbox, b, a);
    const me = await request.get(`${b.url}/api/v1/auth/me`, { headers: { Authorization: authorization } });
    expect(me.status()).toBe(200);
    expect(((await me.json()) as Json).email).toBe(user.email);
  });

  test('a profile picture uploaded through A is stored in the bucket and served by B', async ({ browser, signIn }) => {
    const a = appA!;
    const b = await processB();
    const context = await browser.newContext({ baseURL: a.url });
    try {
      const page = await context.newPage();
      await signIn(page, user.email, user.password);
      await page.goto(`${a.url}/profile`);
      const pictures = page.getByRole('region', { name: 'Profile picture', exact: true });
      const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#16a34a' } })
        .png()
        .toBuffer();
      await pictures.getByLabel('Picture file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
      await pictures.getByRole('button', { name: 'Upload picture' }).click();
      await acknowledgeInfo(page, 'Picture saved');
      const img = pictures.getByRole('img', { name: 'Your profile picture' });
      await expect(img).toHaveAttribute('src', /^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/);
      const src = (await img.getAttribute('src')) ?? '';

      const stored = bucket!.objects.get(`avatars/${src.split('/').pop()}`);
      expect(stored?.contentType, 'the picture is in the bucket').toBe('image/webp');
      const servedByB = await context.request.get(`${b.url}${src}`);
      expect(servedByB.status()).toBe(200);
      expect(servedByB.headers()['content-type']).toBe('image/webp');
      expect(Buffer.from(await servedByB.body()).equals(stored!.bytes)).toBe(true);
    } finally {
      await context.close();
    }
  });

  test('failed sign-ins alternating between A and B trip the limit after the same number as on one process', async ({ request }) => {
    const a = appA!;
    const b = await processB();
    // The free failures, and the one that starts the delay.
    const allowed = GUESS_LIMITS.slowAfter + 1;

    /** Wrong passwords for a fresh address until the answer is 429; returns how many were refused as wrong first. */
    const wrongUntilLimited = async (pick: (i: number) => AppProcess) => {
      const email = uniqueEmail('limit');
      for (let i = 0; i < allowed * 3; i++) {
        const answer = await request.post(`${pick(i).url}/api/v1/auth/signin`, { data: { email, password: 'not the password' } });
        if (answer.status() === 429) {
          expect(answer.headers()['retry-after']).toMatch(/^\d+$/);
          expect(((await answer.json()) as Json).detail).toMatch(/^Too many attempts/);
          // And the other process agrees.
          const other = await request.post(`${pick(i + 1).url}/api/v1/auth/signin`, { data: { email, password: 'not the password' } });
          expect(other.status()).toBe(429);
          return i;
        }
        expect(answer.status(), await answer.text()).toBe(400);
      }
      throw new Error(`no 429 after ${allowed * 3} wrong passwords`);
    };

    const onOneProcess = await wrongUntilLimited(() => a);
    const alternating = await wrongUntilLimited((i) => (i % 2 === 0 ? a : b));
    expect(onOneProcess).toBe(allowed);
    // Per-process counts would let twice as many through before either process said 429.
    expect(alternating).toBe(onOneProcess);
  });
});
