import type { AuditPage } from '~/services/admin/audit.server';
import { Pagination } from '../tables/Pagination';
import { Timestamp } from '../Timestamp';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

// The audit log section of /admin: who did what to whom, newest first.

export function AuditLogPanel({ audit, href }: { audit: AuditPage; href: (page: number) => string }) {
  return (
    <section className="card" aria-labelledby="audit-heading" id="audit">
      <h2 id="audit-heading">Audit log</h2>
      {audit.total === 0 ? (
        <p>No admin action has been taken yet.</p>
      ) : audit.rows.length === 0 ? (
        <p>
          There is no page {audit.page}: the log has {audit.pageCount} {audit.pageCount === 1 ? 'page' : 'pages'}.
        </p>
      ) : (
        <ScrollRegion label="Audit log table">
          <table className="data-table" data-testid="audit-log">
            <caption className="visually-hidden">
              Admin actions, newest first, page {audit.page} of {audit.pageCount}
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {audit.rows.map((row) => (
                <tr key={row.id}>
                  <th scope="row">
                    <Timestamp iso={row.created_at} />
                  </th>
                  <td>{row.actor_email ?? <span className="muted">deleted account</span>}</td>
                  <td>
                    <code>{row.action}</code>
                  </td>
                  <td>{row.target}</td>
                  <td>{row.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <Pagination label="Audit log pages" page={audit.page} pageCount={audit.pageCount} href={href} />
    </section>
  );
}
