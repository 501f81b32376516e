// How many results a page of /screener shows: `size=` in its URL, a view setting (like the as-of
// date) that is not part of a saved screen.

/** Rows per page the results table offers (`size=` on /screener; not part of a saved screen). */
export const PAGE_SIZES = [25, 50, 100, 500] as const;
export const DEFAULT_PAGE_SIZE = 50;

/** The page size a `size=` parameter asks for: one of PAGE_SIZES, else the default. */
export function pageSizeParam(search: URLSearchParams): number {
  const n = Number(search.get('size'));
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : DEFAULT_PAGE_SIZE;
}
