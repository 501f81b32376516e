import { Form, Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { nextSortDir, type SortDir, type SortState } from './sort';

// A sortable column header: a link (sorting is part of the address) or, where the order is a
// saved preference, a small POST form. Either way it works without JavaScript, says its state
// to screen readers (aria-sort) and what a click does ("sort descending").

export function SortHeader({
  label,
  sortKey,
  sort,
  numeric = false,
  descendingFirst = numeric,
  href,
  formFields,
}: {
  label: ReactNode;
  sortKey: string;
  sort: SortState;
  /** Right-aligned, like the numbers below it. */
  numeric?: boolean;
  /** A column first sorted high to low (numbers, dates); text starts A to Z. */
  descendingFirst?: boolean;
  /** Sorting by address: the link for the next direction. */
  href?: (dir: SortDir) => string;
  /** Sorting as a saved preference: the hidden fields of the POST form for the next direction. */
  formFields?: (dir: SortDir) => Record<string, string>;
}) {
  const active = sort.key === sortKey;
  const next = nextSortDir(sort, sortKey, descendingFirst);
  const content = (
    <>
      {label}
      <span className="visually-hidden">, sort {next === 'asc' ? 'ascending' : 'descending'}</span>
      {active ? <span aria-hidden="true">{sort.dir === 'asc' ? ' ▲' : ' ▼'}</span> : null}
    </>
  );
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
      className={numeric ? 'num' : undefined}
    >
      {href ? (
        <Link to={href(next)}>{content}</Link>
      ) : (
        <Form method="post" className="inline-form">
          {Object.entries(formFields?.(next) ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className="button button--link">
            {content}
          </button>
        </Form>
      )}
    </th>
  );
}
