import { Form, Link } from '@remix-run/react';
import { getMetric } from '~/services/metrics/catalogue';
import { formatMetricValue } from '~/services/metrics/format';
import type { WatchlistView } from '~/services/watchlist/view.server';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';
import { SortHeader } from '~/ui/tables/SortHeader';
import { Timestamp } from '~/ui/Timestamp';

// The rows of one watchlist: sortable headers (the order is saved with the list, so each is a
// small POST form), metric columns, a note form and a remove button per row.

type View = Pick<WatchlistView, 'watchlist' | 'rows'>;

export function WatchlistTable({ view }: { view: View }) {
  const { watchlist, rows } = view;
  const id = watchlist.id;
  if (rows.length === 0) return <p>This list is empty. Add a ticker above, or use “Add to watchlist” in the screener.</p>;
  const header = (key: string, label: string, numeric = false, descendingFirst = numeric) => (
    <SortHeader
      key={key}
      label={label}
      sortKey={key}
      sort={watchlist.sort}
      numeric={numeric}
      descendingFirst={descendingFirst}
      formFields={(dir) => ({ intent: 'sort', list: id, key, dir })}
    />
  );
  return (
    <ScrollRegion label={`${watchlist.name} table`}>
      <table className="data-table watchlist-table" data-testid="watchlist-table">
        <caption className="visually-hidden">Securities on {watchlist.name}</caption>
        <thead>
          <tr>
            {header('ticker', 'Ticker')}
            {header('name', 'Name')}
            {watchlist.columns.map((c) => header(c, getMetric(c)?.label ?? c, true))}
            {header('added_at', 'Added', false, true)}
            <th scope="col">Note</th>
            <th scope="col">Remove</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.permaticker}>
              <th scope="row">
                <Link to={`/company/${encodeURIComponent(r.ticker)}`}>{r.ticker}</Link>
              </th>
              <td className="watchlist-name">{r.name}</td>
              {watchlist.columns.map((c) => {
                const def = getMetric(c);
                return (
                  <td key={c} className="num">
                    {def ? formatMetricValue(def, r.values[c]) : 'n/a'}
                  </td>
                );
              })}
              <td>
                <Timestamp iso={r.addedAt} precision="day" />
              </td>
              <td>
                <Form method="post" className="inline-form watchlist-note">
                  <input type="hidden" name="intent" value="note" />
                  <input type="hidden" name="list" value={id} />
                  <input type="hidden" name="permaticker" value={r.permaticker} />
                  <label htmlFor={`note-${r.permaticker}`} className="visually-hidden">
                    Note for {r.ticker}
                  </label>
                  <input id={`note-${r.permaticker}`} name="note" defaultValue={r.note ?? ''} maxLength={1000} />
                  <button type="submit" className="button">
                    Save<span className="visually-hidden"> note for {r.ticker}</span>
                  </button>
                </Form>
              </td>
              <td>
                <Form method="post" className="inline-form">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="list" value={id} />
                  <input type="hidden" name="permaticker" value={r.permaticker} />
                  <button type="submit" className="button button--link">
                    Remove<span className="visually-hidden"> {r.ticker}</span>
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
