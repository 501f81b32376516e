import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfigForTests } from '~/services/config.server';
import { getDb, migrate } from '~/services/db/db.server';
import { DomainError, TOKEN_EXPIRED_DETAIL } from '~/services/http/errors';
import {
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  CODE_WRONG_DETAIL,
  consumeCode,
  issueCode,
  tooManyWrongCodesDetail,
} from '~/services/auth/one-time-codes.server';
import { hashPassword, verifyPassword } from '~/services/auth/passwords.server';
import {
  hashToken,
  issueGuestToken,
  issueUserToken,
  resolveCaller,
  revokeAllUserTokens,
  revokeToken,
  USER_TOKEN_TTL_MS,
} from '~/services/auth/tokens.server';
import {
  createUser,
  deleteAccount,
  findOrCreateOAuthUser,
  finishProfile,
  getUserById,
  hasAccess,
  updateProfile,
} from '~/services/auth/users.server';
import { forEachDatabase } from '../support/databases';

// The account data layer on SQLite and PostgreSQL: users, tokens, one-time codes, OAuth links.

let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;

async function expectDomainError(p: Promise<unknown>, status: number, detail?: string): Promise<DomainError> {
  const e = await p.then(
    () => {
      throw new Error(`expected a ${status} DomainError, got success`);
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DomainError);
  const d = e as DomainError;
  expect(d.status).toBe(status);
  if (detail !== undefined) expect(d.detail).toBe(detail);
  return d;
}

describe('passwords', () => {
  it('hashes with argon2id at the required cost and verifies only the right password', async () => {
    const h = await hashPassword('correct horse');
    expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(h, 'correct horse')).toBe(true);
    expect(await verifyPassword(h, 'correct horsE')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
  });
});

forEachDatabase('account data layer', (target) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('migrates every account table', async () => {
    const db = await getDb();
    for (const table of ['users', 'access_tokens', 'one_time_codes', 'oauth_accounts', 'audit_log'] as const) {
      const r = await sql<{ c: number | string }>`select count(*) as c from ${sql.table(table)}`.execute(db);
      expect(Number(r.rows[0].c)).toBeGreaterThanOrEqual(0);
    }
    expect(target.dataDir).not.toBe('');
  });

  it('migrating again is a no-op', async () => {
    const db = await getDb();
    await migrate(db, target.dialect);
    const r = await sql<{ c: number | string }>`select count(*) as c from kysely_migration`.execute(db);
    expect(Number(r.rows[0].c)).toBeGreaterThanOrEqual(1);
  });

  it.runIf(target.dialect === 'sqlite')('opens SQLite with synchronous=FULL and foreign keys on', async () => {
    const db = await getDb();
    const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
    expect(sync.rows[0].synchronous).toBe(2);
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    expect(fk.rows[0].foreign_keys).toBe(1);
  });

  it('gives exactly one of several concurrent sign-ups with one e-mail the account', async () => {
    const e = email('race-signup');
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => createUser({ email: e, password: 'password-1', full_name: `Racer ${i}` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as DomainError).status).toBe(409);
    }
  });

  describe('users', () => {
    it('creates a user with a lowercased e-mail and refuses the same e-mail in another case', async () => {
      const e = email('Case').toUpperCase();
      const user = await createUser({ email: e, password: 'password-1', full_name: '  Ada Lovelace ' });
      expect(user).toMatchObject({ email: e.toLowerCase(), full_name: 'Ada Lovelace', has_access: false, is_superuser: false });
      await expectDomainError(
        createUser({ email: e.toLowerCase(), password: 'password-1', full_name: 'X' }),
        409,
        'An account with this e-mail already exists.',
      );
    });

    it('rejects bad CLI input with field messages', async () => {
      const err = await expectDomainError(createUser({ email: 'nope', password: 'short', full_name: '' }), 422);
      expect(Object.keys(err.fields ?? {}).sort()).toEqual(['email', 'full_name', 'password']);
      await expectDomainError(
        createUser({ email: email('p'), password: 'short', full_name: 'A' }),
        422,
        'Your password must be at least 8 characters long.',
      );
    });

    it('--access finishes the profile and grants access; --superuser makes a superuser', async () => {
      const u = await createUser({ email: email('cli'), password: 'password-1', full_name: 'Cli User', superuser: true, access: true });
      expect(u).toMatchObject({ has_access: true, is_superuser: true, profile_finished: true });
    });

    it('has_access: override wins, else a finished profile (billing off)', () => {
      expect(hasAccess({ access_override: null, profile_finished: 0 })).toBe(false);
      expect(hasAccess({ access_override: null, profile_finished: 1 })).toBe(true);
      expect(hasAccess({ access_override: 0, profile_finished: 1 })).toBe(false);
      expect(hasAccess({ access_override: 1, profile_finished: 0 })).toBe(true);
    });

    it('has_access needs an active subscription when billing is on', () => {
      // Billing is all-or-nothing: every required variable (the provider is never called here).
      const billingEnv = {
        BILLING_PROVIDER: 'lemonsqueezy',
        BILLING_API_KEY: 'key',
        BILLING_STORE_ID: '1',
        BILLING_VARIANT_IDS: '1',
        BILLING_WEBHOOK_SECRET: 'secret',
      };
      Object.assign(process.env, billingEnv);
      resetConfigForTests();
      try {
        expect(hasAccess({ access_override: null, profile_finished: 1 })).toBe(false);
        expect(hasAccess({ access_override: null, profile_finished: 1 }, true)).toBe(true);
        expect(hasAccess({ access_override: 1, profile_finished: 0 })).toBe(true);
      } finally {
        for (const k of Object.keys(billingEnv)) delete process.env[k];
        resetConfigForTests();
      }
    });

    it('finishProfile grants access; updateProfile changes name and picture only', async () => {
      const u = await createUser({ email: email('fin'), password: 'password-1', full_name: 'Old Name' });
      const finished = await finishProfile(u.id, { full_name: 'New Name' });
      expect(finished).toMatchObject({ full_name: 'New Name', has_access: true, profile_finished: true });
      const patched = await updateProfile(u.id, { profile_picture: 'https://example.com/p.png' });
      expect(patched).toMatchObject({ full_name: 'New Name', profile_picture: 'https://example.com/p.png', email: u.email });
      const cleared = await updateProfile(u.id, { profile_picture: null, full_name: 'Zoë 山田 🙂' });
      expect(cleared).toMatchObject({ full_name: 'Zoë 山田 🙂', profile_picture: null });
      await expectDomainError(updateProfile(u.id, { profile_picture: 'javascript:alert(1)' }), 422);
      await expectDomainError(updateProfile(u.id, { full_name: 'a\u0000b' }), 422);
    });

    it('stores SQL and HTML in names as plain text', async () => {
      const name = `Robert'); DROP TABLE users;-- <script>alert(1)</script>`;
      const u = await createUser({ email: email('sql'), password: 'password-1', full_name: name });
      expect((await getUserById(u.id)).full_name).toBe(name);
    });

    it('deleteAccount removes the user with its tokens, codes and OAuth links', async () => {
      const u = await createUser({ email: email('del'), password: 'password-1', full_name: 'Del' });
      const token = await issueUserToken(u.id);
      await issueCode({ purpose: 'signin', email: u.email, userId: u.id });
      await issueCode({ purpose: 'reset', email: u.email, userId: null });
      const db = await getDb();
      await db
        .insertInto('oauth_accounts')
        .values({ provider: 'github', subject: `s-${u.id}`, user_id: u.id, email: u.email, created_at: new Date().toISOString() })
        .execute();

      await deleteAccount(u.id);

      await expectDomainError(getUserById(u.id), 404);
      await expectDomainError(resolveCaller(`Bearer ${token.access_token}`), 401, 'Invalid token');
      expect(await db.selectFrom('access_tokens').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
      expect(await db.selectFrom('one_time_codes').select('id').where('email', '=', u.email).execute()).toEqual([]);
      expect(await db.selectFrom('oauth_accounts').select('subject').where('user_id', '=', u.id).execute()).toEqual([]);
      await expectDomainError(deleteAccount(u.id), 404);
    });
  });

  describe('first user is admin', () => {
    it('promotes only the first account when FIRST_USER_IS_ADMIN is on', async () => {
      const db = await getDb();
      await db.deleteFrom('users').execute();
      process.env.FIRST_USER_IS_ADMIN = '1';
      resetConfigForTests();
      try {
        const first = await createUser({ email: email('first'), password: 'password-1', full_name: 'First' });
        const second = await createUser({ email: email('second'), password: 'password-1', full_name: 'Second' });
        expect(first.is_superuser).toBe(true);
        expect(second.is_superuser).toBe(false);
      } finally {
        delete process.env.FIRST_USER_IS_ADMIN;
        resetConfigForTests();
      }
    });

    it('promotes nobody when the flag is off', async () => {
      const db = await getDb();
      await db.deleteFrom('users').execute();
      const first = await createUser({ email: email('first'), password: 'password-1', full_name: 'First' });
      expect(first.is_superuser).toBe(false);
    });
  });

  describe('tokens', () => {
    it('stores only a sha256 of a 256-bit token and resolves it', async () => {
      const u = await createUser({ email: email('tok'), password: 'password-1', full_name: 'Tok' });
      const t = await issueUserToken(u.id);
      expect(t.token_type).toBe('bearer');
      expect(Buffer.from(t.access_token, 'base64url').length).toBeGreaterThanOrEqual(16);
      const db = await getDb();
      const rows = await db.selectFrom('access_tokens').selectAll().where('user_id', '=', u.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0].token_hash).toBe(hashToken(t.access_token));
      expect(JSON.stringify(rows)).not.toContain(t.access_token);
      for (const header of [`Bearer ${t.access_token}`, `bearer ${t.access_token}`, t.access_token]) {
        const caller = await resolveCaller(header);
        expect(caller.kind === 'user' && caller.user.id).toBe(u.id);
      }
    });

    it('answers 401 Invalid token for unknown, forged and revoked tokens', async () => {
      const u = await createUser({ email: email('rev'), password: 'password-1', full_name: 'Rev' });
      const t = await issueUserToken(u.id);
      await expectDomainError(resolveCaller('Bearer nope'), 401, 'Invalid token');
      await expectDomainError(resolveCaller('g.abc.def'), 401, 'Invalid token');
      await expectDomainError(resolveCaller(null), 401);
      await revokeToken(`Bearer ${t.access_token}`);
      await expectDomainError(resolveCaller(`Bearer ${t.access_token}`), 401, 'Invalid token');
    });

    it(`answers 401 '${TOKEN_EXPIRED_DETAIL}' after 90 days`, async () => {
      const u = await createUser({ email: email('exp'), password: 'password-1', full_name: 'Exp' });
      vi.useFakeTimers({ toFake: ['Date'] });
      const t = await issueUserToken(u.id);
      vi.setSystemTime(Date.now() + USER_TOKEN_TTL_MS - 1000);
      expect((await resolveCaller(`Bearer ${t.access_token}`)).kind).toBe('user');
      vi.setSystemTime(Date.now() + 2000);
      await expectDomainError(resolveCaller(`Bearer ${t.access_token}`), 401, TOKEN_EXPIRED_DETAIL);
    });

    it('revokeAllUserTokens can keep the current token', async () => {
      const u = await createUser({ email: email('all'), password: 'password-1', full_name: 'All' });
      const [a, b, c] = await Promise.all([issueUserToken(u.id), issueUserToken(u.id), issueUserToken(u.id)]);
      await revokeAllUserTokens(u.id, { exceptTokenHash: hashToken(b.access_token) });
      await expectDomainError(resolveCaller(a.access_token), 401, 'Invalid token');
      expect((await resolveCaller(b.access_token)).kind).toBe('user');
      await expectDomainError(resolveCaller(c.access_token), 401, 'Invalid token');
      await revokeAllUserTokens(u.id);
      await expectDomainError(resolveCaller(b.access_token), 401, 'Invalid token');
    });

    it('disabled users are refused', async () => {
      const u = await createUser({ email: email('dis'), password: 'password-1', full_name: 'Dis' });
      const t = await issueUserToken(u.id);
      await (await getDb()).updateTable('users').set({ disabled: 1 }).where('id', '=', u.id).execute();
      await expectDomainError(resolveCaller(t.access_token), 401);
    });

    it('guest tokens need no row, verify with any configured secret and cannot be forged', async () => {
      const g = issueGuestToken();
      expect(g.access_token).toMatch(/^g\.[\w-]+\.[\w-]+$/);
      expect(await resolveCaller(`Bearer ${g.access_token}`)).toEqual({ kind: 'guest' });
      const [, body, sig] = g.access_token.split('.');
      await expectDomainError(resolveCaller(`g.${body}x.${sig}`), 401, 'Invalid token');

      const before = process.env.SESSION_SECRET;
      process.env.SESSION_SECRET = 'new-secret,old-secret';
      resetConfigForTests();
      const old = issueGuestToken();
      try {
        // Rotation: a token signed with a secret still in the list is valid; one whose secret left is not.
        process.env.SESSION_SECRET = 'newest-secret,new-secret';
        resetConfigForTests();
        expect(await resolveCaller(old.access_token)).toEqual({ kind: 'guest' });
        process.env.SESSION_SECRET = 'another';
        resetConfigForTests();
        await expectDomainError(resolveCaller(old.access_token), 401, 'Invalid token');
      } finally {
        if (before === undefined) delete process.env.SESSION_SECRET;
        else process.env.SESSION_SECRET = before;
        resetConfigForTests();
      }
    });
  });

  describe('one-time codes', () => {
    it('are 6 digits, stored hashed and single use', async () => {
      const e = email('otp');
      const { id, code } = await issueCode({ purpose: 'signin', email: e, userId: null });
      expect(code).toMatch(/^\d{6}$/);
      const row = await (await getDb()).selectFrom('one_time_codes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.code_hash).not.toContain(code);
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect((await consumeCode({ purpose: 'signin', email: e, code })).id).toBe(id);
      await expectDomainError(consumeCode({ purpose: 'signin', email: e, code }), 400, CODE_WRONG_DETAIL);
    });

    it('are bound to their purpose and e-mail', async () => {
      const e = email('bound');
      const { code } = await issueCode({ purpose: 'reset', email: e, userId: null });
      await expectDomainError(consumeCode({ purpose: 'signin', email: e, code }), 400, CODE_WRONG_DETAIL);
      await expectDomainError(consumeCode({ purpose: 'reset', email: email('other'), code }), 400, CODE_WRONG_DETAIL);
      await consumeCode({ purpose: 'reset', email: e, code });
    });

    it('expire after 10 minutes', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const e = email('ttl');
      const { code } = await issueCode({ purpose: 'signin', email: e, userId: null });
      vi.setSystemTime(Date.now() + CODE_TTL_MS + 1);
      await expectDomainError(consumeCode({ purpose: 'signin', email: e, code }), 400, CODE_WRONG_DETAIL);

      const again = await issueCode({ purpose: 'signin', email: e, userId: null });
      vi.setSystemTime(Date.now() + CODE_TTL_MS - 1000);
      await consumeCode({ purpose: 'signin', email: e, code: again.code });
    });

    it('a new code replaces the old one', async () => {
      const e = email('new');
      const first = await issueCode({ purpose: 'signin', email: e, userId: null });
      const second = await issueCode({ purpose: 'signin', email: e, userId: null });
      if (first.code !== second.code) {
        await expectDomainError(consumeCode({ purpose: 'signin', email: e, code: first.code }), 400, CODE_WRONG_DETAIL);
      }
      const old = await (
        await getDb()
      )
        .selectFrom('one_time_codes')
        .select('consumed_at')
        .where('id', '=', first.id)
        .executeTakeFirstOrThrow();
      expect(old.consumed_at).not.toBeNull();
      expect((await consumeCode({ purpose: 'signin', email: e, code: second.code })).id).toBe(second.id);
    });

    it('five wrong tries kill the code, even the right code afterwards', async () => {
      const e = email('kill');
      const { id, code } = await issueCode({ purpose: 'signin', email: e, userId: null });
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 1; i < CODE_MAX_ATTEMPTS; i++) {
        await expectDomainError(consumeCode({ purpose: 'signin', email: e, code: wrong }), 400, CODE_WRONG_DETAIL);
      }
      await expectDomainError(consumeCode({ purpose: 'signin', email: e, code: wrong }), 400, tooManyWrongCodesDetail('signin'));
      await expectDomainError(consumeCode({ purpose: 'signin', email: e, code }), 400, tooManyWrongCodesDetail('signin'));
      const row = await (
        await getDb()
      )
        .selectFrom('one_time_codes')
        .select(['attempts', 'consumed_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ attempts: CODE_MAX_ATTEMPTS, consumed_at: null });
    });

    it('counts exactly five of 20 concurrent wrong tries', async () => {
      const e = email('race');
      const { id, code } = await issueCode({ purpose: 'signin', email: e, userId: null });
      const wrong = code === '000000' ? '111111' : '000000';
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => consumeCode({ purpose: 'signin', email: e, code: wrong })));
      const details = results.map((r) => (r.status === 'rejected' ? (r.reason as DomainError).detail : 'accepted'));
      expect(details.filter((d) => d === CODE_WRONG_DETAIL)).toHaveLength(CODE_MAX_ATTEMPTS - 1);
      expect(details.filter((d) => d === tooManyWrongCodesDetail('signin'))).toHaveLength(20 - (CODE_MAX_ATTEMPTS - 1));
      const row = await (await getDb()).selectFrom('one_time_codes').select('attempts').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.attempts).toBe(CODE_MAX_ATTEMPTS);
      await expectDomainError(consumeCode({ purpose: 'signin', email: e, code }), 400, tooManyWrongCodesDetail('signin'));
    });

    it('a right code wins only once under concurrency', async () => {
      const e = email('double');
      const { code } = await issueCode({ purpose: 'signin', email: e, userId: null });
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => consumeCode({ purpose: 'signin', email: e, code })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    });
  });

  describe('OAuth accounts', () => {
    it('creates an account keyed by provider + subject and finds it again', async () => {
      const e = email('oauth');
      const profile = {
        provider: 'github',
        subject: `sub-${e}`,
        email: e,
        emailVerified: false,
        name: 'Octo Cat',
        picture: 'https://example.com/o.png',
      };
      const u = await findOrCreateOAuthUser(profile);
      expect(u).toMatchObject({ email: e, full_name: 'Octo Cat', profile_picture: 'https://example.com/o.png', has_access: false });
      const again = await findOrCreateOAuthUser({ ...profile, email: email('changed') });
      expect(again.id).toBe(u.id);
      const otherProvider = await findOrCreateOAuthUser({ ...profile, provider: 'google', email: email('g') });
      expect(otherProvider.id).not.toBe(u.id);
    });

    it('links to an existing account by e-mail only when the provider verified the e-mail', async () => {
      const e = email('link');
      const existing = await createUser({ email: e, password: 'password-1', full_name: 'Has Password' });
      await expectDomainError(
        findOrCreateOAuthUser({ provider: 'google', subject: `u-${e}`, email: e, emailVerified: false, name: 'Mallory', picture: null }),
        409,
      );
      const linked = await findOrCreateOAuthUser({
        provider: 'google',
        subject: `v-${e}`,
        email: e.toUpperCase(),
        emailVerified: true,
        name: 'Ignored',
        picture: null,
      });
      expect(linked.id).toBe(existing.id);
      expect(linked.full_name).toBe('Has Password');
    });

    it('refuses a provider answer without an e-mail', async () => {
      await expectDomainError(
        findOrCreateOAuthUser({ provider: 'github', subject: 'no-mail', email: null, emailVerified: false, name: 'X', picture: null }),
        400,
      );
    });
  });
});
