import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import * as profileRoute from '~/routes/_app.profile';
import { startSignIn } from '~/services/auth/accounts.server';
import { SAME_EMAIL_DETAIL } from '~/services/auth/email-change.server';
import { CODE_TTL_MS, CODE_WRONG_DETAIL } from '~/services/auth/one-time-codes.server';
import { CURRENT_PASSWORD_WRONG_DETAIL } from '~/services/auth/password-change.server';
import { picturesDir } from '~/services/auth/picture-store.server';
import { setProfilePicture } from '~/services/auth/profile-picture.server';
import { closeRateLimits, resetRateLimitsForTests } from '~/services/auth/rate-limit.server';
import { issueUserToken, resolveCaller } from '~/services/auth/tokens.server';
import type { AccountUser } from '~/services/auth/types';
import { createUser, EMAIL_TAKEN_DETAIL, findOrCreateOAuthUser, getUserById } from '~/services/auth/users.server';
import { resetConfigForTests } from '~/services/config.server';
import { getDb } from '~/services/db/db.server';
import { closeMailer } from '~/services/mail/mailer.server';
import { createScreener } from '~/services/screener/saved.server';
import { screenFromSearchParams } from '~/services/screener/url';
import { createWatchlist } from '~/services/watchlist/watchlists.server';
import { forEachDatabase } from '../support/databases';
import { callPage, cookiePair, sessionCookieFor, type PageOutcome } from '../support/pages';
import { codeIn, startSmtpServer, type TestSmtpServer } from '../support/smtp';

// The profile's account actions through the real route, on SQLite and PostgreSQL, with mail over
// a real SMTP server: password change (other sessions revoked, this one kept), e-mail change by
// a code sent to the new address, sign out everywhere, and delete account removing every row
// and the picture file.

const PASSWORD = 'correct horse battery';
let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;

/** Every message of a form answer (form-level and per field). */
function messages(outcome: PageOutcome): string {
  const v = outcome.value as { error?: Record<string, string[] | null> } | null;
  return Object.values(v?.error ?? {})
    .flatMap((e) => e ?? [])
    .join(' ');
}

async function tokenWorks(token: string): Promise<boolean> {
  return resolveCaller(`bearer ${token}`).then(
    () => true,
    () => false,
  );
}

forEachDatabase('profile account actions', (target) => {
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    process.env.SMTP_URL = smtp.url;
    resetConfigForTests();
  });
  afterAll(async () => {
    closeMailer();
    await closeRateLimits();
    await smtp.close();
    delete process.env.SMTP_URL;
    resetConfigForTests();
  });
  beforeEach(() => {
    resetRateLimitsForTests();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function account(tag: string): Promise<{ user: AccountUser; cookie: string }> {
    const user = await createUser({ email: email(tag), password: PASSWORD, full_name: 'Profile Tester', access: true });
    return { user, cookie: (await sessionCookieFor(user)).cookie };
  }

  const post = (cookie: string, form: Record<string, string>) => callPage(profileRoute.action, '/profile', { cookie, form });
  const load = (cookie: string) => callPage(profileRoute.loader, '/profile', { cookie });

  it.skipIf(target.dialect !== 'sqlite')('SQLite enforces foreign keys (the cascades of account deletion rely on it)', async () => {
    const db = await getDb();
    const r = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
    expect(r.rows[0].foreign_keys).toBe(1);
  });

  it('password change: wrong or missing current password and bad new ones change nothing', async () => {
    const { user, cookie } = await account('pw-bad');
    const other = await issueUserToken(user.id);
    const wrong = await post(cookie, {
      intent: 'change-password',
      current_password: 'not my password',
      password: 'brand new secret',
      password_confirmation: 'brand new secret',
    });
    expect(wrong.status).toBe(400);
    expect(messages(wrong)).toContain(CURRENT_PASSWORD_WRONG_DETAIL);
    const missing = await post(cookie, {
      intent: 'change-password',
      password: 'brand new secret',
      password_confirmation: 'brand new secret',
    });
    expect(missing.status).toBe(400);
    expect(messages(missing)).toContain('Enter your current password.');
    const mismatch = await post(cookie, {
      intent: 'change-password',
      current_password: PASSWORD,
      password: 'brand new secret',
      password_confirmation: 'brand new secreT',
    });
    expect(messages(mismatch)).toContain('Passwords do not match.');
    const short = await post(cookie, {
      intent: 'change-password',
      current_password: PASSWORD,
      password: 'short',
      password_confirmation: 'short',
    });
    expect(messages(short)).toContain('at least 8 characters');
    const huge = await post(cookie, {
      intent: 'change-password',
      current_password: 'x'.repeat(5000),
      password: 'brand new secret',
      password_confirmation: 'brand new secret',
    });
    expect(huge.status).toBe(400);
    // Passwords never travel back to the form.
    expect(JSON.stringify(wrong.value)).not.toContain('brand new secret');
    expect(await tokenWorks(other.access_token)).toBe(true);
    await expect(startSignIn({ email: user.email, password: PASSWORD }, {})).resolves.toEqual({ email: user.email });
  });

  it('password change revokes every other session and keeps this one', async () => {
    const { user, cookie } = await account('pw-ok');
    const otherBrowser = await sessionCookieFor(user);
    const apiToken = await issueUserToken(user.id);
    const r = await post(cookie, {
      intent: 'change-password',
      current_password: PASSWORD,
      password: 'brand new secret',
      password_confirmation: 'brand new secret',
    });
    expect(r.status, r.text).toBe(302);
    expect(r.location).toBe('/profile');
    expect(await tokenWorks(apiToken.access_token)).toBe(false);
    // This browser still loads the profile; the other one is signed out at its next page.
    expect((await load(cookiePair(r.setCookie) || cookie)).status).toBe(200);
    const other = await load(otherBrowser.cookie);
    expect(other.status).toBe(302);
    expect(other.location).toBe('/data-browser');
    await expect(startSignIn({ email: user.email, password: PASSWORD }, {})).rejects.toMatchObject({ status: 400 });
    await expect(startSignIn({ email: user.email, password: 'brand new secret' }, {})).resolves.toEqual({ email: user.email });
    await smtp.waitForMessage(user.email);
  });

  it('password change: wrong current passwords are rate limited', async () => {
    const { cookie } = await account('pw-limit');
    let last: PageOutcome | undefined;
    for (let i = 0; i < 11; i++) {
      last = await post(cookie, {
        intent: 'change-password',
        current_password: `guess ${i}`,
        password: 'brand new secret',
        password_confirmation: 'brand new secret',
      });
    }
    expect(last?.status).toBe(429);
    expect(messages(last as PageOutcome)).toMatch(/Too many attempts/);
  });

  it('an account made by social sign-in sets its first password without a current one', async () => {
    const user = await findOrCreateOAuthUser({
      provider: 'testidp',
      subject: randomUUID(),
      email: email('social'),
      emailVerified: true,
      name: 'Social Person',
      picture: null,
    });
    const { cookie } = await sessionCookieFor(user);
    expect((await load(cookie)).value).toMatchObject({ hasPassword: false });
    const r = await post(cookie, { intent: 'change-password', password: 'first password', password_confirmation: 'first password' });
    expect(r.status, r.text).toBe(302);
    expect((await load(cookie)).value).toMatchObject({ hasPassword: true });
    await expect(startSignIn({ email: user.email, password: 'first password' }, {})).resolves.toEqual({ email: user.email });
    await smtp.waitForMessage(user.email);
  });

  it('e-mail change: refused for a wrong password, the same address and a taken one', async () => {
    const { user, cookie } = await account('em-bad');
    const taken = await createUser({ email: email('taken'), password: PASSWORD, full_name: 'Has It' });
    const wrong = await post(cookie, { intent: 'change-email', new_email: email('new'), current_password: 'nope nope' });
    expect(wrong.status).toBe(400);
    expect(messages(wrong)).toContain(CURRENT_PASSWORD_WRONG_DETAIL);
    const same = await post(cookie, { intent: 'change-email', new_email: user.email.toUpperCase(), current_password: PASSWORD });
    expect(messages(same)).toContain(SAME_EMAIL_DETAIL);
    const conflict = await post(cookie, { intent: 'change-email', new_email: taken.email, current_password: PASSWORD });
    expect(conflict.status).toBe(409);
    expect(messages(conflict)).toContain(EMAIL_TAKEN_DETAIL);
    const invalid = await post(cookie, { intent: 'change-email', new_email: 'not an address', current_password: PASSWORD });
    expect(invalid.status).toBe(400);
    expect(messages(invalid)).toContain('Enter a valid e-mail address');
    expect((await load(cookie)).value).toMatchObject({ pendingEmail: null });
    expect(smtp.messages.filter((m) => m.subject.includes('new Quarry e-mail'))).toHaveLength(0);
  });

  it('e-mail change by the code mailed to the new address; wrong codes and replays fail', async () => {
    const { user, cookie } = await account('em-ok');
    const next = email('moved');
    const asked = await post(cookie, { intent: 'change-email', new_email: next.toUpperCase(), current_password: PASSWORD });
    expect(asked.status, asked.text).toBe(302);
    const mail = await smtp.waitForMessage(next);
    expect(mail.text).toContain(next);
    const code = codeIn(mail);
    expect((await load(cookie)).value).toMatchObject({ pendingEmail: { newEmail: next } });

    const bad = await post(cookie, { intent: 'confirm-email', token: String((Number(code) + 1) % 1_000_000).padStart(6, '0') });
    expect(bad.status).toBe(400);
    expect(messages(bad)).toContain(CODE_WRONG_DETAIL);
    const notACode = await post(cookie, { intent: 'confirm-email', token: '12ab' });
    expect(notACode.status).toBe(400);
    expect((await getUserById(user.id)).email).toBe(user.email);

    const ok = await post(cookie, { intent: 'confirm-email', token: code });
    expect(ok.status, ok.text).toBe(302);
    expect((await getUserById(user.id)).email).toBe(next);
    // The old address is told, with the new one and where to reset the password.
    const notice = await smtp.waitForMessage(user.email);
    expect(notice.subject).toBe('Your Quarry e-mail address was changed');
    expect(notice.text).toContain(`changed from ${user.email} to ${next}`);
    expect(notice.text).toMatch(/\/forgot-password$/m);
    expect((await load(cookie)).value).toMatchObject({ user: { email: next }, pendingEmail: null });

    const replay = await post(cookie, { intent: 'confirm-email', token: code });
    expect(replay.status).toBe(400);
    expect(messages(replay)).toContain(CODE_WRONG_DETAIL);
    // Signing in now uses the new address.
    await expect(startSignIn({ email: next, password: PASSWORD }, {})).resolves.toEqual({ email: next });
    await smtp.waitForMessage(next);
  });

  it('e-mail change: an expired code fails, and a cancelled change cannot be confirmed', async () => {
    const { user, cookie } = await account('em-exp');
    const lateAddress = email('late');
    await post(cookie, { intent: 'change-email', new_email: lateAddress, current_password: PASSWORD });
    const late = codeIn(await smtp.waitForMessage(lateAddress));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + CODE_TTL_MS + 1_000);
    const expired = await post(cookie, { intent: 'confirm-email', token: late });
    expect(expired.status).toBe(400);
    expect(messages(expired)).toContain(CODE_WRONG_DETAIL);
    vi.useRealTimers();

    const target2 = email('cancel');
    await post(cookie, { intent: 'change-email', new_email: target2, current_password: PASSWORD });
    const code = codeIn(await smtp.waitForMessage(target2));
    expect((await post(cookie, { intent: 'cancel-email-change' })).status).toBe(302);
    expect((await load(cookie)).value).toMatchObject({ pendingEmail: null });
    expect((await post(cookie, { intent: 'confirm-email', token: code })).status).toBe(400);
    expect((await getUserById(user.id)).email).toBe(user.email);
  });

  it('e-mail change: an address taken between the request and the code gives 409 and changes nothing', async () => {
    const { user, cookie } = await account('em-race');
    const wanted = email('wanted');
    await post(cookie, { intent: 'change-email', new_email: wanted, current_password: PASSWORD });
    const code = codeIn(await smtp.waitForMessage(wanted));
    await createUser({ email: wanted, password: PASSWORD, full_name: 'Was Faster' });
    const r = await post(cookie, { intent: 'confirm-email', token: code });
    expect(r.status).toBe(409);
    expect(messages(r)).toContain(EMAIL_TAKEN_DETAIL);
    expect((await getUserById(user.id)).email).toBe(user.email);
  });

  it('e-mail change requests are rate limited (each one sends a mail)', async () => {
    const { cookie } = await account('em-limit');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await post(cookie, { intent: 'change-email', new_email: email(`flood${i}`), current_password: PASSWORD })).status);
    expect(statuses).toEqual([302, 302, 302, 302, 302, 429]);
  });

  it('e-mail change requests are also limited per target address, across accounts', async () => {
    const target = email('victim');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { cookie } = await account(`em-target${i}`);
      statuses.push((await post(cookie, { intent: 'change-email', new_email: target, current_password: PASSWORD })).status);
    }
    expect(statuses).toEqual([302, 302, 302, 302, 302, 429]);
    for (let i = 0; i < 5; i++) await smtp.waitForMessage(target);
  });

  it('sign out everywhere revokes every token, this session included', async () => {
    const { user, cookie } = await account('everywhere');
    const apiToken = await issueUserToken(user.id);
    const second = await sessionCookieFor(user);
    const r = await post(cookie, { intent: 'sign-out-everywhere' });
    expect(r.status).toBe(302);
    expect(r.location).toBe('/login');
    expect(await tokenWorks(apiToken.access_token)).toBe(false);
    const db = await getDb();
    const live = await db.selectFrom('access_tokens').select('id').where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
    // The answer's cookie holds no token any more, and the old cookies no longer work.
    const guest = await load(cookiePair(r.setCookie));
    expect(guest.location).toBe('/profile'); // a guest token is issued first (guest mode)
    expect((await load(cookiePair(guest.setCookie))).location).toBe('/login?redirectTo=%2Fprofile');
    expect((await load(cookie)).location).toBe('/data-browser');
    expect((await load(second.cookie)).location).toBe('/data-browser');
  });

  it('delete account: only after confirming; then its screeners, watchlists, backtests, jobs, tokens, codes and picture are gone', async () => {
    const { user, cookie } = await account('doomed');
    const { user: bystander } = await account('bystander');
    const db = await getDb();
    const parsed = screenFromSearchParams(new URLSearchParams('r=price+%3E+0'));
    if (!parsed.ok) throw new Error('test screen did not parse');
    for (const u of [user, bystander]) {
      const screener = await createScreener(u.id, { name: 'Mine', screen: parsed.screen });
      const list = await createWatchlist(u.id, { name: 'Watch' });
      const now = new Date().toISOString();
      // Stored directly: adding checks the id against market data, which this suite has none of.
      await db
        .insertInto('watchlist_items')
        .values({ watchlist_id: list.id, permaticker: 101, note: 'keep an eye', added_at: now })
        .execute();
      const jobId = randomUUID();
      await db
        .insertInto('jobs')
        .values({
          id: jobId,
          kind: 'backtest',
          payload: '{}',
          user_id: u.id,
          status: 'queued',
          progress: 0,
          message: null,
          attempts: 0,
          max_attempts: 3,
          timeout_ms: 60_000,
          cancel_requested: 0,
          locked_by: null,
          locked_until: null,
          error: null,
          created_at: now,
          started_at: null,
          finished_at: null,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('backtests')
        .values({
          id: randomUUID(),
          user_id: u.id,
          screener_id: screener.id,
          name: 'Run',
          screen: '{}',
          params: '{}',
          job_id: jobId,
          snapshot_id: null,
          engine_version: '1',
          summary: null,
          result: null,
          share_token: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await setProfilePicture(u.id, {
        bytes: await sharp({ create: { width: 40, height: 40, channels: 3, background: '#336699' } })
          .png()
          .toBuffer(),
        fileName: 'me.png',
      });
    }
    await post(cookie, { intent: 'change-email', new_email: email('pending'), current_password: PASSWORD });
    const pictureFile = path.join(picturesDir(), path.basename((await getUserById(user.id)).profile_picture ?? ''));
    const bystanderFile = path.join(picturesDir(), path.basename((await getUserById(bystander.id)).profile_picture ?? ''));
    expect(existsSync(pictureFile)).toBe(true);

    const counts = async (userId: string) => ({
      screeners: (await db.selectFrom('screeners').select('id').where('user_id', '=', userId).execute()).length,
      watchlists: (await db.selectFrom('watchlists').select('id').where('user_id', '=', userId).execute()).length,
      items: (
        await db
          .selectFrom('watchlist_items')
          .innerJoin('watchlists', 'watchlists.id', 'watchlist_items.watchlist_id')
          .select('permaticker')
          .where('watchlists.user_id', '=', userId)
          .execute()
      ).length,
      backtests: (await db.selectFrom('backtests').select('id').where('user_id', '=', userId).execute()).length,
      jobs: (await db.selectFrom('jobs').select('id').where('user_id', '=', userId).execute()).length,
      tokens: (await db.selectFrom('access_tokens').select('id').where('user_id', '=', userId).execute()).length,
      codes: (await db.selectFrom('one_time_codes').select('id').where('user_id', '=', userId).execute()).length,
      users: (await db.selectFrom('users').select('id').where('id', '=', userId).execute()).length,
    });
    const before = await counts(user.id);
    expect(Object.values(before).every((c) => c >= 1)).toBe(true);

    // Cancel (or any close of the confirm modal) keeps everything.
    expect((await post(cookie, { intent: 'delete-account', confirmed: 'false', cancelled: 'true' })).location).toBe('/profile');
    expect((await post(cookie, { intent: 'delete-account' })).location).toBe('/profile');
    expect(await counts(user.id)).toEqual(before);

    const r = await post(cookie, { intent: 'delete-account', confirmed: 'true', cancelled: 'false' });
    expect(r.status).toBe(302);
    expect(r.location).toBe('/register');
    expect(await counts(user.id)).toEqual({ screeners: 0, watchlists: 0, items: 0, backtests: 0, jobs: 0, tokens: 0, codes: 0, users: 0 });
    expect(existsSync(pictureFile)).toBe(false);
    await expect(startSignIn({ email: user.email, password: PASSWORD }, {})).rejects.toMatchObject({ status: 400 });

    // Nobody else's data went with it.
    const kept = await counts(bystander.id);
    for (const table of ['screeners', 'watchlists', 'items', 'backtests', 'jobs', 'tokens', 'users'] as const)
      expect(kept[table], table).toBeGreaterThanOrEqual(1);
    expect(existsSync(bystanderFile)).toBe(true);
  });

  it('an unknown intent is a 400, and a guest is sent to sign in', async () => {
    const { cookie } = await account('unknown');
    expect((await post(cookie, { intent: 'make-me-admin' })).status).toBe(400);
    const guest = await post('', { intent: 'sign-out-everywhere' });
    expect(guest.status).toBe(302);
  });
});
