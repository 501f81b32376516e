import { marketStatus } from '../imports/data-status.server';
import { marketSources } from '../imports/market-sources.server';
import { assertActiveSuperuser, listAudit } from './audit.server';
import { listAdminJobs } from './jobs.server';
import type { AdminQuery } from './user-query';
import { getAdminUser, listUsers } from './users.server';

// What the admin pages show, gathered for one superuser.

export async function adminOverview(actorId: string, query: AdminQuery) {
  await assertActiveSuperuser(actorId);
  const [users, jobs, audit, data, sources] = await Promise.all([
    listUsers(query),
    listAdminJobs(),
    listAudit(query.audit_page),
    marketStatus(),
    marketSources(),
  ]);
  return { users, jobs, audit, data, sources };
}

/** The audit log and the other sections without the users list (when its query was refused). */
export async function adminOverviewWithoutUsers(actorId: string, auditPage: number) {
  await assertActiveSuperuser(actorId);
  const [jobs, audit, data, sources] = await Promise.all([listAdminJobs(), listAudit(auditPage), marketStatus(), marketSources()]);
  return { users: null, jobs, audit, data, sources };
}

export async function adminUserPage(actorId: string, userId: string) {
  await assertActiveSuperuser(actorId);
  return getAdminUser(userId);
}
