import { z } from 'zod';

// The /admin query string: the users list (search, sort, direction, page) and the audit log
// page. One schema for the GET form, the loader and the links, so a link the page draws always
// parses, and anything else (a negative page, a sort that is not a column) is refused by name.

export const USERS_PAGE_SIZE = 25;
export const AUDIT_PAGE_SIZE = 25;
/** Far beyond any real page; it keeps OFFSET a small integer on both databases. */
export const MAX_PAGE = 100_000;
export const MAX_SEARCH = 200;

export const USER_SORTS = ['email', 'name', 'created', 'updated'] as const;
export type UserSort = (typeof USER_SORTS)[number];
export const SORT_LABELS: Record<UserSort, string> = { email: 'E-mail', name: 'Name', created: 'Created', updated: 'Last change' };
export const SORT_DIRS = ['asc', 'desc'] as const;

const pageField = (what: string) => {
  const message = `${what} must be a whole number from 1 to ${MAX_PAGE}.`;
  return z.number({ invalid_type_error: message, required_error: message }).int(message).min(1, message).max(MAX_PAGE, message).default(1);
};

export const AdminQuerySchema = z.object({
  q: z
    .string({ invalid_type_error: 'Search for one text.' })
    .trim()
    .max(MAX_SEARCH, `Search for at most ${MAX_SEARCH} characters.`)
    .default(''),
  sort: z.enum(USER_SORTS, { errorMap: () => ({ message: 'Sort by e-mail, name, created or last change.' }) }).default('created'),
  dir: z.enum(SORT_DIRS, { errorMap: () => ({ message: 'The direction is ascending or descending.' }) }).default('desc'),
  page: pageField('The page'),
  audit_page: pageField('The audit log page'),
});

export type AdminQuery = z.infer<typeof AdminQuerySchema>;

export const DEFAULT_ADMIN_QUERY: AdminQuery = { q: '', sort: 'created', dir: 'desc', page: 1, audit_page: 1 };

/** The /admin link for `query` with `changes`, leaving defaults out so URLs stay short. */
export function adminHref(query: AdminQuery, changes: Partial<AdminQuery> = {}, hash = ''): string {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set('q', next.q);
  if (next.sort !== DEFAULT_ADMIN_QUERY.sort) params.set('sort', next.sort);
  if (next.dir !== DEFAULT_ADMIN_QUERY.dir) params.set('dir', next.dir);
  if (next.page !== 1) params.set('page', String(next.page));
  if (next.audit_page !== 1) params.set('audit_page', String(next.audit_page));
  const qs = params.toString();
  return `/admin${qs ? `?${qs}` : ''}${hash}`;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** LIKE pattern for a substring search: the user's % and _ are literal characters. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
