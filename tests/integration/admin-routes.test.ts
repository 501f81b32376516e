import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import * as adminRoute from '~/routes/_app.admin';
import * as userRoute from '~/routes/_app.admin_.users.$id';
import { getSession } from '~/services/auth/session.server';
import { getDb } from '~/services/db/db.server';
import { recordFailedImport } from '~/services/market/store/import-failures.server';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { writeMarketFixture } from '~/services/market/store/test-fixture.server';
import { callRoute } from '../support/api';
import { forEachDatabase } from '../support/databases';
import { newSignedInAccount } from '../support/pages';
import { submissionErrors } from '~/ui/forms/ActionErrors';

// /admin and /admin/users/$id with real Requests and session cookies: hostile query strings and
// form posts get a 4xx with a message (never a 500), refusals come back as an error dialog, and
// the sections show what the services read.

// Loader results are checked field by field; a loose type keeps those checks short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const signedIn = (email: string, opts: { superuser?: boolean; access?: boolean } = {}) => newSignedInAccount(email, opts);

/** The modal flashed into the session by a redirect, as the next page would show it. */
async function flashed(setCookie: string | null): Promise<Loose> {
  const session = await getSession(new Request('http://localhost/', { headers: { Cookie: (setCookie ?? '').split(';')[0] } }));
  return session.get('modal');
}

forEachDatabase('admin routes', (target) => {
  let root: { id: string; cookie: string };
  let member: { id: string; cookie: string };
  beforeAll(async () => {
    root = await signedIn('root@example.com', { superuser: true });
    member = await signedIn('member@example.com');
  });
  beforeEach(async () => {
    const db = await getDb();
    await db.updateTable('users').set({ is_superuser: 0, disabled: 0, access_override: null }).where('id', '=', member.id).execute();
  });

  const admin = (query: string) => callRoute(adminRoute, { path: `/admin${query}`, cookie: root.cookie });

  it('shows users, jobs, the market data empty state and the audit log to a superuser', async () => {
    const r = await admin('');
    expect(r.status).toBe(200);
    const d = r.body as Loose;
    expect(d.email).toBe('root@example.com');
    expect(d.users.rows.map((u: Loose) => u.email).sort()).toEqual(['member@example.com', 'root@example.com']);
    expect(d.jobs).toEqual({ active: [], failed: [], recent: [] });
    expect(d.data).toMatchObject({ state: 'missing' });
    expect(d.audit).toMatchObject({ total: 0, page: 1 });
  });

  it('refuses a hostile query string with 400 and a message for each part, never a 500', async () => {
    for (const [query, message] of [
      ['?page=-1', 'The page must be a whole number from 1 to 100000.'],
      ['?page=0', 'The page must be a whole number from 1 to 100000.'],
      ['?page=abc', 'The page must be a whole number from 1 to 100000.'],
      ['?page=1.5', 'The page must be a whole number from 1 to 100000.'],
      ['?page=99999999999999999999999', 'The page must be a whole number from 1 to 100000.'],
      ['?audit_page=-3', 'The audit log page must be a whole number from 1 to 100000.'],
      ['?sort=email%3B%20DROP%20TABLE%20users', 'Sort by e-mail, name, created or last change.'],
      ['?sort=password_hash', 'Sort by e-mail, name, created or last change.'],
      ['?sort=email&sort=name', 'Sort by e-mail, name, created or last change.'],
      ['?dir=sideways', 'The direction is ascending or descending.'],
      [`?q=${'x'.repeat(201)}`, 'Search for at most 200 characters.'],
    ] as const) {
      const r = await admin(query);
      expect(r.status, query).toBe(400);
      const d = r.body as Loose;
      expect(Object.values(d.search.error).flat(), query).toContain(message);
      // The list is not drawn from a bad address; the other sections still are.
      expect(d.users, query).toBeNull();
      expect(d.audit.page, query).toBe(1);
    }
    const db = await getDb();
    expect((await db.selectFrom('users').select('id').execute()).length).toBeGreaterThanOrEqual(2);
  });

  it('answers a page past the end with an empty page, and searches', async () => {
    const far = await admin('?page=400');
    expect(far.status).toBe(200);
    expect((far.body as Loose).users).toMatchObject({ rows: [], page: 400, pageCount: 1, total: 2 });
    const found = await admin('?q=MEMBER&sort=email&dir=asc');
    expect((found.body as Loose).users.rows.map((u: Loose) => u.email)).toEqual(['member@example.com']);
    expect((found.body as Loose).query).toMatchObject({ q: 'MEMBER', sort: 'email', dir: 'asc', page: 1 });
  });

  it('sends a non-superuser away from /admin and every user page, and changes nothing for them', async () => {
    expect(await callRoute(adminRoute, { path: '/admin', cookie: member.cookie })).toMatchObject({ status: 302, location: '/' });
    expect(await callRoute(userRoute, { path: `/admin/users/${root.id}`, params: { id: root.id }, cookie: member.cookie })).toMatchObject({
      status: 302,
      location: '/',
    });
    const post = await callRoute(userRoute, {
      path: `/admin/users/${member.id}`,
      params: { id: member.id },
      cookie: member.cookie,
      form: { intent: 'superuser', superuser: 'make' },
    });
    expect(post).toMatchObject({ status: 302, location: '/' });
    const jobPost = await callRoute(adminRoute, {
      path: '/admin',
      cookie: member.cookie,
      form: { intent: 'job-cancel', job_id: randomUUID() },
    });
    expect(jobPost).toMatchObject({ status: 302, location: '/' });
    const db = await getDb();
    expect((await db.selectFrom('users').select('is_superuser').where('id', '=', member.id).executeTakeFirstOrThrow()).is_superuser).toBe(
      0,
    );
    expect(await db.selectFrom('audit_log').select('id').execute()).toEqual([]);
  });

  it('refuses a cross-site form post', async () => {
    const r = await callRoute(userRoute, {
      path: `/admin/users/${member.id}`,
      params: { id: member.id },
      cookie: root.cookie,
      form: { intent: 'access', access: 'grant' },
      headers: { Origin: 'https://evil.example' },
    });
    expect(r.status).toBe(403);
  });

  const post = (id: string, form: Record<string, string>) =>
    callRoute(userRoute, { path: `/admin/users/${encodeURIComponent(id)}`, params: { id }, cookie: root.cookie, form });

  it('answers unknown intents, bad values and bad ids with 4xx and a message', async () => {
    for (const form of <Array<Record<string, string>>>[
      { intent: 'frobnicate' },
      {},
      { intent: 'access' },
      { intent: 'access', access: 'maybe' },
      { intent: 'superuser', superuser: 'yes please' },
    ]) {
      const r = await post(member.id, form);
      expect(r.status, JSON.stringify(form)).toBe(400);
      expect(submissionErrors(r.body).length, JSON.stringify(form)).toBeGreaterThan(0);
    }
    for (const id of ['../../etc/passwd', 'x'.repeat(65), "1' OR '1'='1", '']) {
      const r = await post(id, { intent: 'access', access: 'grant' });
      expect(r.status, id).toBe(404);
      const page = await callRoute(userRoute, { path: '/admin/users/x', params: { id }, cookie: root.cookie });
      expect(page.status, id).toBe(404);
    }
    const unknown = randomUUID();
    expect((await post(unknown, { intent: 'disable' })).status).toBe(404);
    expect((await callRoute(userRoute, { path: `/admin/users/${unknown}`, params: { id: unknown }, cookie: root.cookie })).status).toBe(
      404,
    );
    for (const form of <Array<Record<string, string>>>[
      { intent: 'job-retry' },
      { intent: 'job-nuke', job_id: 'a' },
      { intent: 'job-cancel', job_id: 'x'.repeat(121) },
      { intent: 'job-cancel', job_id: '' },
    ]) {
      const r = await callRoute(adminRoute, { path: '/admin', cookie: root.cookie, form });
      expect(r.status, JSON.stringify(form)).toBe(400);
      expect(submissionErrors(r.body).length, JSON.stringify(form)).toBeGreaterThan(0);
    }
    expect(
      (await callRoute(adminRoute, { path: '/admin', cookie: root.cookie, form: { intent: 'job-cancel', job_id: randomUUID() } })).status,
    ).toBe(404);
    const db = await getDb();
    expect(await db.selectFrom('audit_log').select('id').execute()).toEqual([]);
  });

  it('changes access with a form post, redirects back with a message, and logs it', async () => {
    const r = await post(member.id, { intent: 'access', access: 'revoke' });
    expect(r).toMatchObject({ status: 302, location: `/admin/users/${member.id}` });
    expect(await flashed(r.headers.get('Set-Cookie'))).toMatchObject({ kind: 'info', title: 'Access changed' });
    const page = await callRoute(userRoute, { path: `/admin/users/${member.id}`, params: { id: member.id }, cookie: root.cookie });
    expect((page.body as Loose).user).toMatchObject({ has_access: false, access_mode: 'revoke', email: 'member@example.com' });
    const g = await post(member.id, { intent: 'access', access: 'grant' });
    expect(g.status).toBe(302);
    const d = (await admin('')).body as Loose;
    expect(d.audit.rows.map((a: Loose) => a.action).sort()).toEqual(['user.access.grant', 'user.access.revoke']);
    expect(d.audit.rows[0]).toMatchObject({ actor_email: 'root@example.com', target: 'member@example.com' });
  });

  it('shows a refusal as an error dialog: the last superuser, yourself', async () => {
    const last = await post(root.id, { intent: 'superuser', superuser: 'unmake' });
    expect(last).toMatchObject({ status: 302, location: `/admin/users/${root.id}` });
    const modal = await flashed(last.headers.get('Set-Cookie'));
    expect(modal).toMatchObject({
      kind: 'error',
      error: { detail: expect.stringMatching(/root@example\.com is the last active superuser/) },
    });
    const self = await post(root.id, { intent: 'disable' });
    expect((await flashed(self.headers.get('Set-Cookie'))).error.detail).toBe('You cannot disable your own account.');
    const db = await getDb();
    expect(await db.selectFrom('users').select(['is_superuser', 'disabled']).where('id', '=', root.id).executeTakeFirstOrThrow()).toEqual({
      is_superuser: 1,
      disabled: 0,
    });
  });

  it('deletes only after the confirm dialog says yes', async () => {
    const victim = await signedIn('victim@example.com');
    const page = await callRoute(userRoute, {
      path: `/admin/users/${victim.id}?modal=delete`,
      params: { id: victim.id },
      cookie: root.cookie,
    });
    expect((page.body as Loose).modal).toMatchObject({
      kind: 'confirm',
      action: `/admin/users/${victim.id}`,
      fields: { intent: 'delete' },
    });
    expect(await post(victim.id, { intent: 'delete', confirmed: 'false', cancelled: 'true' })).toMatchObject({
      status: 302,
      location: `/admin/users/${victim.id}`,
    });
    expect(await post(victim.id, { intent: 'delete' })).toMatchObject({ status: 302, location: `/admin/users/${victim.id}` });
    const db = await getDb();
    expect(await db.selectFrom('users').select('id').where('id', '=', victim.id).executeTakeFirst()).toBeDefined();
    const yes = await post(victim.id, { intent: 'delete', confirmed: 'true', cancelled: 'false' });
    expect(yes).toMatchObject({ status: 302, location: '/admin' });
    expect(await db.selectFrom('users').select('id').where('id', '=', victim.id).executeTakeFirst()).toBeUndefined();
    // The deleted account's session no longer works.
    expect(await callRoute(adminRoute, { path: '/admin', cookie: victim.cookie })).toMatchObject({ status: 302 });
  });

  it('shows the market data status and the latest import errors', async () => {
    const file = path.join(target.dataDir, 'market.duckdb');
    await writeMarketFixture(file);
    await recordFailedImport(file, { source: 'sec', startedAt: '2031-01-01T00:00:00.000Z', error: 'companyfacts/CIK1.json:1: not JSON' });
    try {
      const d = (await admin('')).body as Loose;
      expect(d.data.state).toBe('ok');
      expect(d.data.status).toMatchObject({ securities: 8, listed: 4, delisted: 4 });
      expect(d.data.status.snapshotId).toMatch(/^[0-9a-f]{32}$/);
      expect(d.data.status.latestErrors).toEqual([
        expect.objectContaining({ source: 'sec', status: 'failed', detail: 'companyfacts/CIK1.json:1: not JSON' }),
      ]);
      expect(d.data.status.lastImportPerSource.map((r: Loose) => r.source)).toEqual(['fixture', 'sec']);
    } finally {
      closeMarketReader();
    }
  });
});
