import { marketStatus } from '../imports/data-status.server';
import { assertActiveSuperuser, listAudit } from './audit.server';
import { listAdminJobs } from './jobs.server';
import type { AdminQuery } from './user-query';
import { getAdminUser, listUsers } from './users.server';

// What the admin pages show, gathered for one superuser.

export async function adminOverview(actorId: string, query: AdminQuery) {
  await assertActiveSuperuser(actorId);
  const [users, jobs, audit, data] = await Promise.all([listUsers(query), listAdminJobs(), listAudit(query.audit_page), marketStatus()]);
  return { users, jobs, audit, data };
}

/** The audit log and the other sections without the users list (when its query was refused). */
export async function adminOverviewWithoutUsers(actorId: string, auditPage: number) {
  await assertActiveSuperuser(actorId);
  const [jobs, audit, data] = await Promise.all([listAdminJobs(), listAudit(auditPage), marketStatus()]);
  return { users: null, jobs, audit, data };
}

export async function adminUserPage(actorId: string, userId: string) {
  await assertActiveSuperuser(actorId);
  return getAdminUser(userId);
}
