import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as apiUrlRoute from '~/routes/api.apiurl';
import * as logoutRoute from '~/routes/api.v1.auth.logout';
import * as meRoute from '~/routes/api.v1.auth.me';
import * as resetConfirmRoute from '~/routes/api.v1.auth.reset-password-confirm';
import * as resetRoute from '~/routes/api.v1.auth.reset-password';
import * as guestRoute from '~/routes/api.v1.auth.signin.guest';
import * as otpVerifyRoute from '~/routes/api.v1.auth.signin.otp.verify';
import * as signInRoute from '~/routes/api.v1.auth.signin';
import * as signUpRoute from '~/routes/api.v2.auth.signup';
import { resetConfigForTests } from '~/services/config.server';
import { getDb } from '~/services/db/db.server';
import { TOKEN_EXPIRED_DETAIL } from '~/services/http/errors';
import { GUEST_DETAIL } from '~/services/auth/api.server';
import { CODE_TTL_MS } from '~/services/auth/one-time-codes.server';
import { GUESS_LIMITS } from '~/services/auth/guessing-limits.server';
import { closeRateLimits, resetRateLimitsForTests } from '~/services/auth/rate-limit.server';
import { USER_TOKEN_TTL_MS } from '~/services/auth/tokens.server';
import { closeMailer } from '~/services/mail/mailer.server';
import { callRoute, type ApiAnswer, type RouteModule } from '../support/api';
import { forEachDatabase } from '../support/databases';
import { codeIn, startSmtpServer, type TestSmtpServer } from '../support/smtp';

// The auth endpoints (/api/v1/auth/*), called through the route modules with real Requests,
// against a real database (SQLite and PostgreSQL) and a real SMTP server receiving the codes.

type TokenBody = { access_token: string; token_type: string };
type Detail = { detail: string; errors?: Record<string, string[]> };

let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;
const PASSWORD = 'correct horse battery';

function expectDetail(answer: ApiAnswer, status: number, detail?: string | RegExp): Detail {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('Content-Type')).toContain('application/json');
  const body = answer.body as Detail;
  expect(typeof body.detail).toBe('string');
  if (typeof detail === 'string') expect(body.detail).toBe(detail);
  else if (detail) expect(body.detail).toMatch(detail);
  return body;
}

forEachDatabase('auth JSON API', () => {
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    process.env.SMTP_URL = smtp.url;
    process.env.APP_URL = 'https://quarry.example';
    resetConfigForTests();
  });
  afterAll(async () => {
    closeMailer();
    await closeRateLimits();
    await smtp.close();
    delete process.env.SMTP_URL;
    delete process.env.APP_URL;
    resetConfigForTests();
  });
  beforeEach(() => {
    resetRateLimitsForTests();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function signUp(email = newEmail('user'), fullName = 'Ada Lovelace'): Promise<{ email: string; token: string }> {
    const r = await callRoute(signUpRoute, { json: { email, full_name: fullName, password: PASSWORD, password_confirmation: PASSWORD } });
    expect(r.status, r.text).toBe(201);
    return { email, token: (r.body as TokenBody).access_token };
  }

  async function signInCode(email: string, password = PASSWORD): Promise<string> {
    const r = await callRoute(signInRoute, { json: { email, password } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ otp_required: true, email: email.toLowerCase() });
    return codeIn(await smtp.waitForMessage(email));
  }

  async function signIn(email: string, password = PASSWORD): Promise<string> {
    const code = await signInCode(email, password);
    const r = await callRoute(otpVerifyRoute, { json: { token: code, email } });
    expect(r.status, r.text).toBe(200);
    return (r.body as TokenBody).access_token;
  }

  it('GET /api/apiurl answers the API base URL', async () => {
    const r = await callRoute(apiUrlRoute);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ url: 'https://quarry.example/api' });
  });

  it('POST /api/v1/auth/signin/guest issues a guest token; GET /me answers detail for it', async () => {
    const r = await callRoute(guestRoute, { method: 'POST' });
    expect(r.status).toBe(200);
    const token = r.body as TokenBody;
    expect(token.token_type).toBe('bearer');
    expect(Object.keys(token).sort()).toEqual(['access_token', 'token_type']);
    const me = await callRoute(meRoute, { authorization: `${token.token_type} ${token.access_token}` });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ detail: GUEST_DETAIL });
    expectDetail(await callRoute(meRoute, { method: 'PATCH', json: { full_name: 'G' }, token: token.access_token }), 403, GUEST_DETAIL);
    expectDetail(await callRoute(meRoute, { method: 'DELETE', token: token.access_token }), 403, GUEST_DETAIL);
  });

  it('sign-up → sign-in → code from SMTP → /me → PATCH → DELETE', async () => {
    const email = newEmail('Flow').toUpperCase();
    const signUpAnswer = await callRoute(signUpRoute, {
      json: { email, full_name: 'Grace Hopper', password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(signUpAnswer.status).toBe(201);
    expect((signUpAnswer.body as TokenBody).token_type).toBe('bearer');
    const lower = email.toLowerCase();

    const code = await signInCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const verified = await callRoute(otpVerifyRoute, { json: { token: code, email } });
    expect(verified.status).toBe(200);
    const token = verified.body as TokenBody;
    expect(Object.keys(token).sort()).toEqual(['access_token', 'token_type']);

    const me = await callRoute(meRoute, { authorization: `${token.token_type} ${token.access_token}` });
    expect(me.status).toBe(200);
    const user = me.body as Record<string, unknown>;
    expect(user).toEqual({ id: expect.any(String), email: lower, full_name: 'Grace Hopper', profile_picture: null, has_access: false });

    const patched = await callRoute(meRoute, {
      method: 'PATCH',
      token: token.access_token,
      json: { full_name: 'Grace B. Hopper', profile_picture: 'https://example.com/grace.png' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toEqual({ ...user, full_name: 'Grace B. Hopper', profile_picture: 'https://example.com/grace.png' });

    // The code was single use.
    expectDetail(await callRoute(otpVerifyRoute, { json: { token: code, email } }), 400, 'The code is wrong or has expired.');

    const deleted = await callRoute(meRoute, { method: 'DELETE', token: token.access_token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectDetail(await callRoute(meRoute, { token: token.access_token }), 401, 'Invalid token');
    expectDetail(await callRoute(meRoute, { token: (signUpAnswer.body as TokenBody).access_token }), 401, 'Invalid token');
    const db = await getDb();
    expect(await db.selectFrom('users').select('id').where('email', '=', lower).execute()).toEqual([]);
    expect(await db.selectFrom('access_tokens').select('id').where('user_id', '=', String(user.id)).execute()).toEqual([]);
    expectDetail(await callRoute(signInRoute, { json: { email, password: PASSWORD } }), 400, 'Incorrect e-mail or password.');
    // The address is free again.
    await signUp(lower);
  });

  it('sign-up: duplicate e-mail 409, mismatched passwords 422 with a field message', async () => {
    const { email } = await signUp();
    const dup = await callRoute(signUpRoute, {
      json: { email: email.toUpperCase(), full_name: 'X', password: PASSWORD, password_confirmation: PASSWORD },
    });
    expectDetail(dup, 409, 'An account with this e-mail already exists.');
    const mismatch = await callRoute(signUpRoute, {
      json: { email: newEmail('mm'), full_name: 'X', password: PASSWORD, password_confirmation: 'other password' },
    });
    const body = expectDetail(mismatch, 422);
    expect(body.errors?.password_confirmation).toEqual(['Passwords do not match.']);
    const short = await callRoute(signUpRoute, {
      json: { email: newEmail('short'), full_name: 'X', password: 'short', password_confirmation: 'short' },
    });
    expect(expectDetail(short, 422).errors?.password).toEqual(['Your password must be at least 8 characters long.']);
    const long = 'x'.repeat(129);
    const tooLong = await callRoute(signUpRoute, {
      json: { email: newEmail('long'), full_name: 'X', password: long, password_confirmation: long },
    });
    expect(expectDetail(tooLong, 422).errors?.password).toEqual(['Your password must be at most 128 characters long.']);
    const max = 'ü'.repeat(128);
    expect(
      (await callRoute(signUpRoute, { json: { email: newEmail('max'), full_name: 'X', password: max, password_confirmation: max } }))
        .status,
    ).toBe(201);
  });

  it('sign-in: unknown e-mail and wrong password answer the same', async () => {
    const { email } = await signUp();
    const wrong = await callRoute(signInRoute, { json: { email, password: 'wrong password' } });
    const unknown = await callRoute(signInRoute, { json: { email: newEmail('nobody'), password: 'wrong password' } });
    expectDetail(wrong, 400, 'Incorrect e-mail or password.');
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
    expect(smtp.messages.some((m) => m.to.includes(email))).toBe(false);
  });

  it('otp/verify: a wrong code is 400 and a new code replaces the old', async () => {
    const { email } = await signUp();
    const first = await signInCode(email);
    const second = await signInCode(email);
    const wrong = first === '000000' ? '000001' : '000000';
    expectDetail(
      await callRoute(otpVerifyRoute, { json: { token: wrong === second ? '999999' : wrong, email } }),
      400,
      'The code is wrong or has expired.',
    );
    if (first !== second) {
      expectDetail(await callRoute(otpVerifyRoute, { json: { token: first, email } }), 400, 'The code is wrong or has expired.');
    }
    expect((await callRoute(otpVerifyRoute, { json: { token: second, email } })).status).toBe(200);
  });

  it('otp/verify: a code expires after 10 minutes', async () => {
    const { email } = await signUp();
    vi.useFakeTimers({ toFake: ['Date'] });
    const code = await signInCode(email);
    vi.setSystemTime(Date.now() + CODE_TTL_MS + 1000);
    expectDetail(await callRoute(otpVerifyRoute, { json: { token: code, email } }), 400, 'The code is wrong or has expired.');
  });

  it('otp/verify: 20 concurrent wrong codes count exactly 5 tries and kill the code', async () => {
    const { email } = await signUp();
    const code = await signInCode(email);
    const wrong = code === '123456' ? '654321' : '123456';
    const answers = await Promise.all(Array.from({ length: 20 }, () => callRoute(otpVerifyRoute, { json: { token: wrong, email } })));
    const details = answers.map((a) => expectDetail(a, 400).detail);
    expect(details.filter((d) => d === 'The code is wrong or has expired.')).toHaveLength(4);
    expect(details.filter((d) => d === 'Too many wrong codes. Sign in again to get a new code.')).toHaveLength(16);
    const row = await (
      await getDb()
    )
      .selectFrom('one_time_codes')
      .select('attempts')
      .where('email', '=', email)
      .where('purpose', '=', 'signin')
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    expectDetail(
      await callRoute(otpVerifyRoute, { json: { token: code, email } }),
      400,
      'Too many wrong codes. Sign in again to get a new code.',
    );
    // Signing in again gives a fresh, working code.
    await signIn(email);
  });

  it('an expired token answers 401 with the token-expired detail', async () => {
    const { token } = await signUp();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + USER_TOKEN_TTL_MS + 1000);
    expectDetail(await callRoute(meRoute, { token }), 401, TOKEN_EXPIRED_DETAIL);
  });

  it('/me without or with a bad Authorization header is 401', async () => {
    expectDetail(await callRoute(meRoute), 401);
    for (const authorization of [
      'Bearer',
      'Basic dXNlcjpwYXNz',
      'Bearer a b',
      `Bearer ${'x'.repeat(5000)}`,
      'Bearer g.forged.sig',
      "Bearer ' OR 1=1 --",
    ]) {
      expectDetail(await callRoute(meRoute, { authorization }), 401);
    }
  });

  it('POST /api/v1/auth/logout revokes the caller token only', async () => {
    const { email, token: first } = await signUp();
    const second = await signIn(email);
    expect((await callRoute(logoutRoute, { method: 'POST', token: second })).status).toBe(204);
    expectDetail(await callRoute(meRoute, { token: second }), 401, 'Invalid token');
    expect((await callRoute(meRoute, { token: first })).status).toBe(200);
  });

  describe('password reset', () => {
    it('answers the same for known and unknown e-mails; mails a code and a link only to the known one', async () => {
      const { email } = await signUp(newEmail('reset'));
      const unknown = newEmail('ghost');
      // The unknown address goes first: had it been mailed, that mail would arrive before the other.
      const b = await callRoute(resetRoute, { json: { email: unknown } });
      const a = await callRoute(resetRoute, { json: { email: email.toUpperCase() } });
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ ok: true });
      expect(b.status).toBe(a.status);
      expect(b.body).toEqual(a.body);
      const mail = await smtp.waitForMessage(email);
      const code = codeIn(mail);
      expect(mail.text).toContain(`https://quarry.example/reset-password?email=${encodeURIComponent(email)}&token=${code}`);
      expect(/^[\x20-\x7e\n]*$/.test(mail.text)).toBe(true);
      expect(smtp.messages.some((m) => m.to.includes(unknown))).toBe(false);
    });

    it('sets the new password, is single use and revokes every token', async () => {
      const { email, token: signUpToken } = await signUp();
      const signedIn = await signIn(email);
      await callRoute(resetRoute, { json: { email } });
      const code = codeIn(await smtp.waitForMessage(email));
      const newPassword = 'a brand new password';
      const ok = await callRoute(resetConfirmRoute, {
        json: { email, token: code, password: newPassword, password_confirmation: newPassword },
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toEqual({ ok: true });
      for (const t of [signUpToken, signedIn]) expectDetail(await callRoute(meRoute, { token: t }), 401, 'Invalid token');
      expectDetail(
        await callRoute(resetConfirmRoute, {
          json: { email, token: code, password: 'another one!', password_confirmation: 'another one!' },
        }),
        400,
        'The code is wrong or has expired.',
      );
      expectDetail(await callRoute(signInRoute, { json: { email, password: PASSWORD } }), 400, 'Incorrect e-mail or password.');
      await signIn(email, newPassword);
    });

    it('the code expires after 10 minutes', async () => {
      const { email } = await signUp();
      vi.useFakeTimers({ toFake: ['Date'] });
      await callRoute(resetRoute, { json: { email } });
      const code = codeIn(await smtp.waitForMessage(email));
      vi.setSystemTime(Date.now() + CODE_TTL_MS + 1000);
      expectDetail(
        await callRoute(resetConfirmRoute, {
          json: { email, token: code, password: 'new password 1', password_confirmation: 'new password 1' },
        }),
        400,
        'The code is wrong or has expired.',
      );
      vi.useRealTimers();
      await signIn(email);
    });

    it('checks the new password like sign-up does', async () => {
      const body = expectDetail(
        await callRoute(resetConfirmRoute, {
          json: { email: newEmail('x'), token: '123456', password: 'new password 1', password_confirmation: 'new password 2' },
        }),
        422,
      );
      expect(body.errors?.password_confirmation).toEqual(['Passwords do not match.']);
    });
  });

  it('slows down wrong passwords per e-mail with 429 and Retry-After', async () => {
    const email = newEmail('brute');
    // The free failures, and the one that starts the delay.
    const allowed = GUESS_LIMITS.slowAfter + 1;
    for (let i = 0; i < allowed; i++) {
      expectDetail(await callRoute(signInRoute, { json: { email, password: `guess ${i}` } }), 400, 'Incorrect e-mail or password.');
    }
    const limited = await callRoute(signInRoute, { json: { email, password: 'guess' } });
    expectDetail(limited, 429, /^Too many attempts\. Try again in \d+ seconds\.$/);
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(GUESS_LIMITS.maxDelaySeconds);
    // Another e-mail is not affected.
    expectDetail(await callRoute(signInRoute, { json: { email: newEmail('other'), password: 'guess' } }), 400);
  });

  describe('hostile input never gets a 5xx', () => {
    const posts: Array<[string, RouteModule]> = [
      ['signup', signUpRoute],
      ['signin', signInRoute],
      ['otp/verify', otpVerifyRoute],
      ['reset-password', resetRoute],
      ['reset-password-confirm', resetConfirmRoute],
    ];

    it.each(posts)('%s: wrong method is 405', async (_name, mod) => {
      const r = await callRoute(mod, { method: 'GET' });
      expectDetail(r, 405);
      expect(r.headers.get('Allow')).toBe('POST');
      expectDetail(await callRoute(mod, { method: 'PUT', json: {} }), 405);
    });

    it.each(posts)('%s: missing fields, wrong types, arrays and null are 422 with field errors', async (_name, mod) => {
      for (const json of [
        {},
        { email: 42, password: true, full_name: ['x'], token: 123456, password_confirmation: null },
        [],
        null,
        'text',
        7,
      ]) {
        const body = expectDetail(await callRoute(mod, { json }), 422);
        expect(body.errors).toBeTypeOf('object');
      }
    });

    it.each(posts)('%s: invalid JSON is 400, a 1 MB body is 413, a non-JSON type is 415', async (_name, mod) => {
      expectDetail(
        await callRoute(mod, { body: '{"email": "a@b.c",', headers: { 'Content-Type': 'application/json' } }),
        400,
        'Request body is not valid JSON.',
      );
      const huge = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024) });
      expectDetail(await callRoute(mod, { body: huge, headers: { 'Content-Type': 'application/json' } }), 413);
      expectDetail(
        await callRoute(mod, { body: huge, headers: { 'Content-Type': 'application/json', 'Content-Length': String(huge.length) } }),
        413,
      );
      expectDetail(await callRoute(mod, { body: '<xml/>', headers: { 'Content-Type': 'text/xml' } }), 415);
    });

    it.each(posts)('%s: SQL, HTML and NUL in the e-mail are 422', async (_name, mod) => {
      for (const email of [
        "' OR 1=1 --@x.com",
        '<script>alert(1)</script>@example.com',
        'a\u0000b@example.com',
        'x'.repeat(300) + '@example.com',
      ]) {
        const r = await callRoute(mod, {
          json: { email, password: PASSWORD, password_confirmation: PASSWORD, full_name: 'X', token: '123456' },
        });
        expectDetail(r, 422);
      }
    });

    it('unicode, SQL and HTML in names are stored verbatim', async () => {
      for (const name of [
        'Zoë Ångström-山田 🙂',
        "Robert'); DROP TABLE users;--",
        '<img src=x onerror=alert(1)>',
        '\uD800 lone surrogate',
      ]) {
        const email = newEmail('uni');
        const r = await callRoute(signUpRoute, { json: { email, full_name: name, password: PASSWORD, password_confirmation: PASSWORD } });
        expect(r.status, r.text).toBe(201);
        const me = await callRoute(meRoute, { token: (r.body as TokenBody).access_token });
        expect(me.status).toBe(200);
        const stored = (me.body as { full_name: string }).full_name;
        // A lone surrogate cannot be stored as UTF-8: it comes back as U+FFFD, never as an error.
        expect(stored).toBe(name.replace('\uD800', '\uFFFD'));
      }
      expectDetail(
        await callRoute(signUpRoute, {
          json: { email: newEmail('nul'), full_name: 'a\u0000b', password: PASSWORD, password_confirmation: PASSWORD },
        }),
        422,
      );
      expectDetail(
        await callRoute(signUpRoute, {
          json: { email: newEmail('long'), full_name: 'x'.repeat(101), password: PASSWORD, password_confirmation: PASSWORD },
        }),
        422,
      );
    });

    it('PATCH /me: wrong types, bad URLs, huge and invalid bodies are 4xx', async () => {
      const { token } = await signUp();
      for (const json of [
        { full_name: 5 },
        { full_name: '' },
        { profile_picture: 'javascript:alert(1)' },
        { profile_picture: 'ftp://x/y.png' },
        { profile_picture: 12 },
        [],
      ]) {
        expectDetail(await callRoute(meRoute, { method: 'PATCH', token, json }), 422);
      }
      expectDetail(await callRoute(meRoute, { method: 'PATCH', token, body: '{', headers: { 'Content-Type': 'application/json' } }), 400);
      expectDetail(
        await callRoute(meRoute, {
          method: 'PATCH',
          token,
          body: JSON.stringify({ full_name: 'x'.repeat(2_000_000) }),
          headers: { 'Content-Type': 'application/json' },
        }),
        413,
      );
      expectDetail(await callRoute(meRoute, { method: 'POST', token, json: {} }), 405);
      expectDetail(await callRoute(meRoute, { method: 'PATCH', json: { full_name: 'No Token' } }), 401);
      const cleared = await callRoute(meRoute, { method: 'PATCH', token, json: { profile_picture: '' } });
      expect((cleared.body as { profile_picture: unknown }).profile_picture).toBeNull();
    });

    it('form-encoded bodies work like JSON', async () => {
      const email = newEmail('form');
      const body = new URLSearchParams({ email, full_name: 'Form User', password: PASSWORD, password_confirmation: PASSWORD });
      const r = await callRoute(signUpRoute, { body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      expect(r.status, r.text).toBe(201);
    });
  });
});
