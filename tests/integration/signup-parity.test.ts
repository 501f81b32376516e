import { beforeEach, expect, it } from 'vitest';
import * as registerPage from '~/routes/_welcome.register';
import * as signupApi from '~/routes/api.v2.auth.signup';
import { resetRateLimitsForTests } from '~/services/auth/rate-limit.server';
import { getDb } from '~/services/db/db.server';
import { callRoute } from '../support/api';
import { forEachDatabase } from '../support/databases';
import { callPage } from '../support/pages';

// POST /api/v2/auth/signup and the /register page make the same account: same stored fields
// (no access, profile to finish), and the page then asks for the rest of the profile.

const PASSWORD = 'correct horse battery';

async function storedAccount(email: string) {
  const db = await getDb();
  const row = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const tokens = await db.selectFrom('access_tokens').select('revoked_at').where('user_id', '=', row.id).execute();
  const { id, email: _email, password_hash, created_at, updated_at, ...rest } = row as Record<string, unknown>;
  void id;
  void _email;
  void created_at;
  void updated_at;
  return { ...rest, has_password: typeof password_hash === 'string', tokens: tokens.map((t) => t.revoked_at) };
}

forEachDatabase('sign-up parity', () => {
  // Each run signs up the same addresses: sign-up limits per address must not carry over.
  beforeEach(() => resetRateLimitsForTests());
  it('leaves the account in the same state from the API as from the page', async () => {
    const form = { email: 'page@example.com', full_name: 'Ada Page', password: PASSWORD, password_confirmation: PASSWORD };
    const page = await callPage(registerPage.action, '/register', { form });
    expect(page).toMatchObject({ status: 302, location: '/finish-profile-creation' });

    const api = await callRoute(signupApi, {
      path: '/api/v2/auth/signup',
      json: { ...form, email: 'api@example.com' },
    });
    expect(api.status).toBe(201);

    const fromPage = await storedAccount('page@example.com');
    const fromApi = await storedAccount('api@example.com');
    expect(fromApi).toEqual(fromPage);
    expect(fromApi).toMatchObject({ profile_finished: expect.anything() as unknown, has_password: true, tokens: [null] });
  });
});
