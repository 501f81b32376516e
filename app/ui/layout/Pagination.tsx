import { Link } from '@remix-run/react';

// Previous / next links for a paged list; plain links, so paging works without JavaScript.

export function Pagination({
  label,
  page,
  pageCount,
  href,
}: {
  label: string;
  page: number;
  pageCount: number;
  href: (page: number) => string;
}) {
  if (pageCount <= 1 && page <= 1) return null;
  return (
    <nav aria-label={label} className="pagination">
      {page > 1 ? <Link to={href(Math.min(page - 1, pageCount))}>Previous page</Link> : null}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? <Link to={href(page + 1)}>Next page</Link> : null}
    </nav>
  );
}
