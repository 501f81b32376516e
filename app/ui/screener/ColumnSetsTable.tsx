import { Link } from '@remix-run/react';
import { InlineStatus, usePageNotice } from '~/ui/forms/PageNotice';
import { EmptyState } from '~/ui/layout/EmptyState';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';
import type { ColumnSetOption } from './ColumnSets';
import { metricLabel } from './view';

// The saved column sets of /screener/columns: their columns by label, and the actions (show in
// the screener, rename, delete), as plain links to the page's own dialogs.

export function ColumnSetsTable({ sets }: { sets: ColumnSetOption[] }) {
  const notice = usePageNotice();
  return (
    <>
      {notice ? (
        <p className="screener-notice" data-testid="column-sets-notice">
          <InlineStatus reply={notice} />
        </p>
      ) : null}
      {sets.length === 0 ? (
        <EmptyState title="No column sets">
          <p>
            Choose the columns of the <Link to="/screener">screener</Link>&rsquo;s results, then save them with &ldquo;Save column
            set&rdquo; above the results.
          </p>
        </EmptyState>
      ) : (
        <ScrollRegion label="Column sets table">
          <table className="data-table" data-testid="column-sets-table">
            <caption className="visually-hidden">Your saved column sets</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Columns</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {sets.map((s) => (
                <tr key={s.id}>
                  <th scope="row">{s.name}</th>
                  <td>{s.columns.map(metricLabel).join(', ')}</td>
                  <td className="screener-row-actions">
                    <Link to={`/screener?${new URLSearchParams(s.columns.map((c) => ['col', c]))}`}>
                      Show in screener<span className="visually-hidden"> with {s.name}</span>
                    </Link>
                    <Link to={`?modal=rename&id=${encodeURIComponent(s.id)}`}>
                      Rename<span className="visually-hidden"> {s.name}</span>
                    </Link>
                    <Link to={`?modal=delete&id=${encodeURIComponent(s.id)}`}>
                      Delete<span className="visually-hidden"> {s.name}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </>
  );
}
