import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form, Link } from '@remix-run/react';
import type { UsersPage, AdminUserRow } from '~/services/admin/users.server';
import { AdminQuerySchema, SORT_LABELS, USER_SORTS, adminHref, type AdminQuery, type UserSort } from '~/services/admin/user-query';
import { FormErrors, SelectField, TextField } from '../forms/fields';
import { Pagination } from '../tables/Pagination';
import { SortHeader } from '../tables/SortHeader';
import { Timestamp } from '../Timestamp';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

// The users section of /admin: a GET search form (search, sort, direction) and a sortable,
// paged table whose rows lead to each account's page.

const SORT_OPTIONS = USER_SORTS.map((s) => ({ value: s, label: SORT_LABELS[s] }));
const DIR_OPTIONS = [
  { value: 'asc', label: 'Ascending' },
  { value: 'desc', label: 'Descending' },
];

function accessText(u: AdminUserRow): string {
  const base = u.has_access ? 'Full access' : 'No access';
  if (u.access_mode === 'grant') return `${base} (granted)`;
  if (u.access_mode === 'revoke') return `${base} (revoked)`;
  return base;
}

/** Dates start newest first, text A to Z; a second click turns the active column around. */
function UserSortHeader({ query, sort }: { query: AdminQuery; sort: UserSort }) {
  return (
    <SortHeader
      label={SORT_LABELS[sort]}
      sortKey={sort}
      sort={{ key: query.sort, dir: query.dir }}
      descendingFirst={sort === 'created' || sort === 'updated'}
      href={(dir) => adminHref(query, { sort, dir, page: 1 })}
    />
  );
}

export function UsersPanel({
  query,
  search,
  users,
}: {
  query: AdminQuery;
  search: SubmissionResult<string[]> | null;
  users: UsersPage | null;
}) {
  const [form, fields] = useForm({
    id: 'admin-user-search',
    lastResult: search ?? undefined,
    defaultValue: { q: query.q, sort: query.sort, dir: query.dir },
    constraint: getZodConstraint(AdminQuerySchema),
    shouldValidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdminQuerySchema }),
  });
  // The page numbers have no input of their own: their errors are shown with the form's.
  const queryErrors = [...(form.errors ?? []), ...(fields.page.errors ?? []), ...(fields.audit_page.errors ?? [])];
  return (
    <section className="card" aria-labelledby="users-heading" id="users">
      <h2 id="users-heading">Users</h2>
      <Form method="get" action="/admin" {...getFormProps(form)} className="search-form" role="search" aria-label="Users">
        <FormErrors id={form.errorId} errors={queryErrors} />
        <TextField meta={fields.q} label="Search by e-mail or name" type="search" autoComplete="off" />
        <SelectField meta={fields.sort} label="Sort by" options={SORT_OPTIONS} />
        <SelectField meta={fields.dir} label="Direction" options={DIR_OPTIONS} />
        {query.audit_page !== 1 ? <input type="hidden" name="audit_page" value={query.audit_page} /> : null}
        <div>
          <button type="submit" className="button button--primary">
            Search users
          </button>
        </div>
      </Form>
      {users === null ? (
        <p>
          <Link to="/admin">Show all users</Link>
        </p>
      ) : (
        <UsersTable query={query} users={users} />
      )}
    </section>
  );
}

function UsersTable({ query, users }: { query: AdminQuery; users: UsersPage }) {
  const summary = query.q
    ? `${users.total} ${users.total === 1 ? 'user matches' : 'users match'} “${query.q}”.`
    : `${users.total} ${users.total === 1 ? 'user' : 'users'}.`;
  return (
    <>
      <p data-testid="users-count">{summary}</p>
      {users.rows.length === 0 ? (
        users.total > 0 ? (
          <p>
            There is no page {users.page}: the list has {users.pageCount} {users.pageCount === 1 ? 'page' : 'pages'}.{' '}
            <Link to={adminHref(query, { page: 1 })}>Go to the first page</Link>
          </p>
        ) : null
      ) : (
        <ScrollRegion label="Users table">
          <table className="data-table" data-testid="admin-users">
            <caption className="visually-hidden">
              Users, page {users.page} of {users.pageCount}
            </caption>
            <thead>
              <tr>
                <UserSortHeader query={query} sort="email" />
                <UserSortHeader query={query} sort="name" />
                <UserSortHeader query={query} sort="created" />
                <UserSortHeader query={query} sort="updated" />
                <th scope="col">Access</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {users.rows.map((u) => (
                <tr key={u.id}>
                  <th scope="row">
                    <Link to={`/admin/users/${u.id}`}>{u.email}</Link>
                  </th>
                  <td>{u.full_name}</td>
                  <td>
                    <Timestamp iso={u.created_at} />
                  </td>
                  <td>
                    <Timestamp iso={u.updated_at} />
                  </td>
                  <td>{accessText(u)}</td>
                  <td>{u.is_superuser ? 'Superuser' : 'User'}</td>
                  <td>{u.disabled ? 'Disabled' : 'Active'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <Pagination label="User pages" page={users.page} pageCount={users.pageCount} href={(page) => adminHref(query, { page })} />
    </>
  );
}
