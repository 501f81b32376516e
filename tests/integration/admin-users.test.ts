import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { audited, listAudit, type AuditAction } from '~/services/admin/audit.server';
import { USERS_PAGE_SIZE, type AdminQuery } from '~/services/admin/user-query';
import { deleteUserAsAdmin, getAdminUser, listUsers, setAccess, setDisabled, setSuperuser } from '~/services/admin/users.server';
import { issueUserToken, resolveCaller } from '~/services/auth/tokens.server';
import { getDb } from '~/services/db/db.server';
import { DomainError } from '~/services/http/errors';
import { forEachDatabase } from '../support/databases';

// The admin's account services on SQLite and PostgreSQL: the list (search, sort, pages), one
// account, and every change with its audit entry in the same transaction.

type Seed = {
  email: string;
  name: string;
  created: string;
  updated?: string;
  superuser?: boolean;
  disabled?: boolean;
  finished?: boolean;
  override?: number | null;
};

async function seedUser(s: Seed): Promise<string> {
  const db = await getDb();
  const id = randomUUID();
  await db
    .insertInto('users')
    .values({
      id,
      email: s.email,
      full_name: s.name,
      password_hash: null,
      profile_picture: null,
      profile_finished: s.finished ? 1 : 0,
      access_override: s.override ?? null,
      is_superuser: s.superuser ? 1 : 0,
      disabled: s.disabled ? 1 : 0,
      created_at: s.created,
      updated_at: s.updated ?? s.created,
    })
    .execute();
  return id;
}

async function expectDomainError(p: Promise<unknown>, status: number, detail?: RegExp): Promise<void> {
  const e = await p.then(
    () => new Error(`expected a ${status} DomainError, got success`),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DomainError);
  expect((e as DomainError).status).toBe(status);
  if (detail) expect((e as DomainError).detail).toMatch(detail);
}

async function auditCount(): Promise<number> {
  const db = await getDb();
  const { n } = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

async function userRow(id: string) {
  const db = await getDb();
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

const q = (over: Partial<AdminQuery> = {}): AdminQuery => ({ q: '', sort: 'created', dir: 'desc', page: 1, audit_page: 1, ...over });
const day = (i: number) => new Date(Date.UTC(2024, 0, 1 + i)).toISOString();

forEachDatabase('admin: users list', () => {
  // 30 members, created a day apart, named so that name order and e-mail order differ.
  const members: Array<{ id: string; email: string; name: string; created: string }> = [];
  beforeAll(async () => {
    for (let i = 0; i < 30; i++) {
      const email = `member${String(i).padStart(2, '0')}@example.com`;
      const name = `${i % 2 === 0 ? 'alice' : 'Bob'} ${String(29 - i).padStart(2, '0')}`;
      members.push({ id: await seedUser({ email, name, created: day(i), updated: day(60 - i) }), email, name, created: day(i) });
    }
    await seedUser({ email: 'percent_100%@example.com', name: 'Wild Card', created: day(40) });
  });

  it('pages by 25, newest first by default, with pages that neither overlap nor skip', async () => {
    const first = await listUsers(q());
    expect(first.total).toBe(31);
    expect(first.pageCount).toBe(2);
    expect(first.rows).toHaveLength(USERS_PAGE_SIZE);
    expect(first.rows[0].email).toBe('percent_100%@example.com');
    expect(first.rows[1].email).toBe('member29@example.com');
    const second = await listUsers(q({ page: 2 }));
    expect(second.rows).toHaveLength(6);
    const ids = [...first.rows, ...second.rows].map((r) => r.id);
    expect(new Set(ids).size).toBe(31);
    expect(second.rows.at(-1)?.email).toBe('member00@example.com');
  });

  it('answers a page past the end with no rows, not an error', async () => {
    const r = await listUsers(q({ page: 9 }));
    expect(r.rows).toEqual([]);
    expect(r.pageCount).toBe(2);
  });

  it('sorts by e-mail, name (case-insensitive), created and last change, both ways', async () => {
    const emails = (await listUsers(q({ sort: 'email', dir: 'asc' }))).rows.map((r) => r.email);
    expect(emails.slice(0, 3)).toEqual(['member00@example.com', 'member01@example.com', 'member02@example.com']);
    const names = (await listUsers(q({ sort: 'name', dir: 'asc', q: 'member' }))).rows.map((r) => r.full_name);
    // "alice …" before "Bob …" whatever the database's collation.
    expect(names[0]).toBe('alice 01');
    expect(names.slice(0, 15).every((n) => n.startsWith('alice'))).toBe(true);
    expect(names[15]).toMatch(/^Bob/);
    const nameDesc = (await listUsers(q({ sort: 'name', dir: 'desc', q: 'member' }))).rows.map((r) => r.full_name);
    expect(nameDesc[0]).toBe('Bob 28');
    const created = (await listUsers(q({ sort: 'created', dir: 'asc' }))).rows.map((r) => r.email);
    expect(created[0]).toBe('member00@example.com');
    const updated = (await listUsers(q({ sort: 'updated', dir: 'desc', q: 'member' }))).rows.map((r) => r.email);
    // updated_at runs the other way round from created_at.
    expect(updated[0]).toBe('member00@example.com');
    const updatedAsc = (await listUsers(q({ sort: 'updated', dir: 'asc', q: 'member' }))).rows.map((r) => r.email);
    expect(updatedAsc[0]).toBe('member29@example.com');
  });

  it('searches e-mail and name as a case-insensitive substring; % and _ are plain characters', async () => {
    expect((await listUsers(q({ q: 'MEMBER1' }))).rows.map((r) => r.email).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `member1${i}@example.com`),
    );
    const byName = await listUsers(q({ q: 'BOB 0' }));
    expect(byName.total).toBe(5);
    expect(byName.rows.every((r) => r.full_name.startsWith('Bob 0'))).toBe(true);
    expect((await listUsers(q({ q: '%' }))).rows.map((r) => r.email)).toEqual(['percent_100%@example.com']);
    expect((await listUsers(q({ q: '_100' }))).total).toBe(1);
    expect((await listUsers(q({ q: 'r_0' }))).total).toBe(0);
    expect((await listUsers(q({ q: "'; drop table users; --" }))).total).toBe(0);
    expect((await listUsers(q())).total).toBe(31);
  });
});

forEachDatabase('admin: search beyond ASCII', () => {
  beforeAll(async () => {
    await seedUser({ email: 'emile@example.com', name: 'Émile Zola', created: day(1) });
    await seedUser({ email: 'anders@example.com', name: 'Anders Ångström', created: day(2) });
    await seedUser({ email: 'oeil@example.com', name: 'Œil Ünal', created: day(3) });
  });

  it('matches accented capitals case-insensitively on both databases', async () => {
    expect((await listUsers(q({ q: 'émile' }))).rows.map((r) => r.full_name)).toEqual(['Émile Zola']);
    expect((await listUsers(q({ q: 'ÅNGSTRÖM' }))).rows.map((r) => r.full_name)).toEqual(['Anders Ångström']);
    expect((await listUsers(q({ q: 'œil ü' }))).rows.map((r) => r.full_name)).toEqual(['Œil Ünal']);
    expect((await listUsers(q({ q: 'zola' }))).total).toBe(1);
  });
});

forEachDatabase('admin: changes and the audit log', () => {
  let root: string;
  let other: string;
  let member: string;
  beforeEach(async () => {
    const db = await getDb();
    await db.deleteFrom('audit_log').execute();
    await db.deleteFrom('users').execute();
    root = await seedUser({ email: 'root@example.com', name: 'Root', created: day(0), superuser: true, finished: true });
    other = await seedUser({ email: 'other-admin@example.com', name: 'Other Admin', created: day(1), superuser: true, finished: true });
    member = await seedUser({ email: 'member@example.com', name: 'Member', created: day(2) });
  });

  it('grants, revokes and gives back to the rules; the guard sees it on the next request', async () => {
    const token = await issueUserToken(member);
    const seen = async () => {
      const caller = await resolveCaller(`bearer ${token.access_token}`);
      return caller.kind === 'user' ? caller.user.has_access : null;
    };
    expect(await seen()).toBe(false);
    expect((await setAccess(root, member, 'grant')).has_access).toBe(true);
    expect(await seen()).toBe(true);
    expect((await userRow(member))?.access_override).toBe(1);
    expect((await setAccess(root, member, 'revoke')).has_access).toBe(false);
    expect(await seen()).toBe(false);
    await (await getDb()).updateTable('users').set({ profile_finished: 1 }).where('id', '=', member).execute();
    // Revoked wins over a finished profile; back to the rules, the finished profile counts.
    expect(await seen()).toBe(false);
    const ruled = await setAccess(root, member, 'rules');
    expect(ruled).toMatchObject({ has_access: true, access_mode: 'rules' });
    expect((await getAdminUser(member)).access_reason).toMatch(/rules: the profile is finished/);
    const audit = await listAudit(1);
    expect(audit.rows.map((r) => r.action).sort()).toEqual(['user.access.grant', 'user.access.revoke', 'user.access.rules']);
    expect(audit.rows.every((r) => r.actor_email === 'root@example.com' && r.target === 'member@example.com')).toBe(true);
    expect(audit.rows.find((r) => r.action === 'user.access.grant')?.detail).toContain('follows the rules → granted');
  });

  it('never removes the last active superuser, and a refused change writes no audit row', async () => {
    await setSuperuser(root, other, false);
    expect(await auditCount()).toBe(1);
    await expectDomainError(setSuperuser(root, root, false), 409, /root@example\.com is the last active superuser/);
    expect((await userRow(root))?.is_superuser).toBe(1);
    expect(await auditCount()).toBe(1);
    // A disabled superuser does not count as someone who can still run the admin page.
    await setSuperuser(root, other, true);
    await setDisabled(root, other, true);
    await expectDomainError(setSuperuser(root, root, false), 409, /last active superuser/);
    await setDisabled(root, other, false);
    await setSuperuser(root, root, false);
    expect((await userRow(root))?.is_superuser).toBe(0);
    // root is no longer a superuser: it can change nothing, and nothing is logged for it.
    const before = await auditCount();
    await expectDomainError(setAccess(root, member, 'grant'), 403);
    expect((await userRow(member))?.access_override).toBeNull();
    expect(await auditCount()).toBe(before);
  });

  it('disables an account and signs it out everywhere; enabling does not bring the old sessions back', async () => {
    const a = await issueUserToken(member);
    const b = await issueUserToken(member);
    const mine = await issueUserToken(root);
    const u = await setDisabled(root, member, true);
    expect(u.disabled).toBe(true);
    for (const t of [a, b]) await expectDomainError(resolveCaller(`bearer ${t.access_token}`), 401);
    const db = await getDb();
    const live = await db.selectFrom('access_tokens').select('id').where('user_id', '=', member).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
    expect((await resolveCaller(`bearer ${mine.access_token}`)).kind).toBe('user');
    await setDisabled(root, member, false);
    await expectDomainError(resolveCaller(`bearer ${a.access_token}`), 401);
    expect((await listAudit(1)).rows.map((r) => r.action).sort()).toEqual(['user.disable', 'user.enable']);
  });

  it('refuses to disable or delete yourself', async () => {
    await expectDomainError(setDisabled(root, root, true), 409, /your own account/);
    await expectDomainError(deleteUserAsAdmin(root, root), 409, /your own account/);
    expect((await userRow(root))?.disabled).toBe(0);
    expect(await auditCount()).toBe(0);
  });

  it('deletes an account with its saved things, and logs who it was', async () => {
    const db = await getDb();
    const now = new Date().toISOString();
    await db
      .insertInto('watchlists')
      .values({
        id: randomUUID(),
        user_id: member,
        name: 'W',
        is_default: 1,
        columns: '[]',
        sort_key: 'ticker',
        sort_dir: 'asc',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await issueUserToken(member);
    expect((await getAdminUser(member)).counts).toMatchObject({ watchlists: 1, sessions: 1, screeners: 0, backtests: 0 });
    expect(await deleteUserAsAdmin(root, member)).toEqual({ email: 'member@example.com' });
    expect(await userRow(member)).toBeUndefined();
    expect(await db.selectFrom('watchlists').select('id').where('user_id', '=', member).execute()).toEqual([]);
    expect(await db.selectFrom('access_tokens').select('id').where('user_id', '=', member).execute()).toEqual([]);
    const [entry] = (await listAudit(1)).rows;
    expect(entry).toMatchObject({ action: 'user.delete', target: 'member@example.com', actor_email: 'root@example.com' });
    expect(entry.detail).toContain(member);
    await expectDomainError(deleteUserAsAdmin(root, member), 404);
    await expectDomainError(setAccess(root, randomUUID(), 'grant'), 404);
    expect(await auditCount()).toBe(1);
  });

  it('writes the change and its audit entry in one transaction: a failing entry undoes the change', async () => {
    const failing = audited(root, async (trx) => {
      await trx.updateTable('users').set({ full_name: 'Changed' }).where('id', '=', member).execute();
      return { result: null, audit: { action: 'user.rename' as AuditAction, target: 'member@example.com', detail: 'x' } };
    });
    await expect(failing).rejects.toThrow(/Unknown audit action/);
    expect((await userRow(member))?.full_name).toBe('Member');
    expect(await auditCount()).toBe(0);
    // And a change that fails after writing undoes its write, with no entry either.
    const throwing = audited(root, async (trx) => {
      await trx.updateTable('users').set({ full_name: 'Changed' }).where('id', '=', member).execute();
      throw new DomainError(409, 'changed my mind');
    });
    await expectDomainError(throwing, 409, /changed my mind/);
    expect((await userRow(member))?.full_name).toBe('Member');
    expect(await auditCount()).toBe(0);
  });

  it('pages the audit log newest first with the actor e-mail, even after the actor is deleted', async () => {
    for (let i = 0; i < 27; i++) await setAccess(other, member, i % 2 === 0 ? 'grant' : 'revoke');
    const first = await listAudit(1);
    expect(first).toMatchObject({ total: 27, pageCount: 2, page: 1 });
    expect(first.rows).toHaveLength(25);
    const times = first.rows.map((r) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(first.rows.every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r.created_at))).toBe(true);
    expect((await listAudit(2)).rows).toHaveLength(2);
    await deleteUserAsAdmin(root, other);
    const after = await listAudit(1);
    expect(after.rows[0]).toMatchObject({ action: 'user.delete', actor_email: 'root@example.com' });
    expect(after.rows[1]).toMatchObject({ actor_id: other, actor_email: null });
  });
});
