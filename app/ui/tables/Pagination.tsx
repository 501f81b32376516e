import { Link } from '@remix-run/react';

// Previous / next links for a paged table or list; plain links, so paging works without
// JavaScript. Every paged view of the app uses this one.

export function Pagination({
  label,
  page,
  pageCount,
  href,
}: {
  /** Names the navigation landmark ("Result pages"): unique on the page. */
  label: string;
  page: number;
  pageCount: number;
  href: (page: number) => string;
}) {
  if (pageCount <= 1 && page <= 1) return null;
  return (
    <nav aria-label={label} className="pagination">
      {page > 1 ? <Link to={href(Math.min(page - 1, Math.max(pageCount, 1)))}>Previous page</Link> : null}
      <span>
        Page {page} of {Math.max(pageCount, 1)}
      </span>
      {page < pageCount ? <Link to={href(page + 1)}>Next page</Link> : null}
    </nav>
  );
}
