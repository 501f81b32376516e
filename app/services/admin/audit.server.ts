import { randomUUID } from 'node:crypto';
import { getDb, type DB } from '../db/db.server';
import { conflict, forbidden } from '../http/errors';
import { AUDIT_PAGE_SIZE, pageCount } from './user-query';

// The audit log of admin actions. An action and its entry are written in one transaction
// (`audited`), so there is never a change without its entry nor an entry for a change that
// did not happen.

export const AUDIT_ACTIONS = [
  'user.access.grant',
  'user.access.revoke',
  'user.access.rules',
  'user.superuser.make',
  'user.superuser.unmake',
  'user.disable',
  'user.enable',
  'user.delete',
  'job.retry',
  'job.cancel',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditEntry = { action: AuditAction; target: string; detail: string };

export type AuditRow = {
  id: string;
  created_at: string;
  actor_id: string | null;
  /** null when the acting account has been deleted since. */
  actor_email: string | null;
  action: string;
  target: string | null;
  detail: string | null;
};

// The columns are varchar(64) and varchar(255): PostgreSQL refuses longer text, SQLite would not.
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

async function writeAudit(trx: DB, actorId: string, entry: AuditEntry): Promise<void> {
  // A programming error, not bad input: an unknown action must not reach the log.
  if (!(AUDIT_ACTIONS as readonly string[]).includes(entry.action)) throw new Error(`Unknown audit action "${entry.action}".`);
  await trx
    .insertInto('audit_log')
    .values({
      id: randomUUID(),
      actor_id: actorId,
      action: entry.action,
      target: clip(entry.target, 255),
      detail: clip(entry.detail, 4000),
      created_at: new Date().toISOString(),
    })
    .execute();
}

/** Admin services check the actor themselves: a forgotten guard must not open them to anyone. */
export async function assertActiveSuperuser(actorId: string, db?: DB): Promise<void> {
  const d = db ?? (await getDb());
  const actor = await d
    .selectFrom('users')
    .select('id')
    .where('id', '=', actorId)
    .where('is_superuser', '=', 1)
    .where('disabled', '=', 0)
    .executeTakeFirst();
  if (!actor) throw forbidden('Only an active superuser can do this.');
}

/** Whether `e` is a database's "run it again" answer to two transactions that crossed. */
function isSerializationFailure(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01' || code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
}

const ATTEMPTS = 3;

/**
 * Runs an admin change and writes its audit entry in the same serializable transaction. The actor
 * must still be an active superuser when it commits (the guard ran a moment before; a concurrent
 * demotion must win). Checks like "not the last superuser" are read and acted on inside the same
 * transaction; on PostgreSQL a crossing transaction makes one of them fail and run again.
 */
export async function audited<T>(actorId: string, change: (trx: DB) => Promise<{ result: T; audit: AuditEntry }>): Promise<T> {
  const db = await getDb();
  for (let attempt = 1; ; attempt++) {
    try {
      return await db
        .transaction()
        .setIsolationLevel('serializable')
        .execute(async (trx) => {
          await assertActiveSuperuser(actorId, trx);
          const { result, audit } = await change(trx);
          await writeAudit(trx, actorId, audit);
          return result;
        });
    } catch (e) {
      if (!isSerializationFailure(e)) throw e;
      if (attempt >= ATTEMPTS) throw conflict('Another change to the same accounts happened at the same time. Try again.');
    }
  }
}

export type AuditPage = { rows: AuditRow[]; page: number; pageCount: number; total: number };

/** The newest entries first, a page at a time. */
export async function listAudit(page: number, db?: DB): Promise<AuditPage> {
  const d = db ?? (await getDb());
  const { total } = await d
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<string | number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await d
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.actor_id')
    .select([
      'audit_log.id',
      'audit_log.created_at',
      'audit_log.actor_id',
      'users.email as actor_email',
      'audit_log.action',
      'audit_log.target',
      'audit_log.detail',
    ])
    .orderBy('audit_log.created_at', 'desc')
    .orderBy('audit_log.id', 'desc')
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE)
    .execute();
  const count = Number(total);
  return { rows, page, pageCount: pageCount(count, AUDIT_PAGE_SIZE), total: count };
}
