import { Form, Link } from '@remix-run/react';
import { METRICS, getMetric } from '~/services/metrics/catalogue';
import type { Watchlist } from '~/services/watchlist/model';

// Around the watchlist table: the user's lists, the list's own actions (rename, delete, CSV), and
// the forms that add a ticker or a column and remove a column. Plain forms and links throughout.

export function WatchlistPicker({ lists, current }: { lists: Watchlist[]; current: string }) {
  return (
    <nav aria-label="Your watchlists" className="screener-presets">
      <ul>
        {lists.map((l) => (
          <li key={l.id}>
            <Link to={`/watchlist?list=${l.id}`} aria-current={l.id === current ? 'page' : undefined}>
              {l.name} ({l.itemCount})
            </Link>
          </li>
        ))}
        <li>
          <Link to={`/watchlist?list=${current}&modal=new-list`}>New list…</Link>
        </li>
      </ul>
    </nav>
  );
}

export function WatchlistActions({ watchlist, asOf }: { watchlist: Watchlist; asOf: string | null }) {
  const id = watchlist.id;
  return (
    <p className="screener-actions">
      <Link to={`/watchlist?list=${id}&modal=rename-list`}>Rename list…</Link>
      <Link to={`/watchlist?list=${id}&modal=delete-list`} className="danger-link">
        Delete list…
      </Link>
      <a href={`/watchlist/csv?list=${id}`} className="button" download>
        Export CSV
      </a>
      {asOf ? <span className="muted">Values as of {asOf}.</span> : null}
    </p>
  );
}

export function WatchlistAddForms({ watchlist }: { watchlist: Watchlist }) {
  const id = watchlist.id;
  return (
    <div className="screener-add-grid">
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="list" value={id} />
        <div className="field">
          <label htmlFor="add-security">Add a ticker</label>
          <input id="add-security" name="security" required maxLength={40} autoComplete="off" />
        </div>
        <button type="submit" className="button button--primary">
          Add to list
        </button>
      </Form>
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="add-column" />
        <input type="hidden" name="list" value={id} />
        <div className="field">
          <label htmlFor="add-column">Add a column</label>
          <select id="add-column" name="column" defaultValue="">
            <option value="" disabled>
              Choose a metric
            </option>
            {METRICS.filter((m) => !watchlist.columns.includes(m.id)).map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          Add column
        </button>
      </Form>
    </div>
  );
}

export function WatchlistColumns({ watchlist }: { watchlist: Watchlist }) {
  if (watchlist.columns.length === 0) return null;
  return (
    <ul className="screener-chips" aria-label="Columns">
      {watchlist.columns.map((c) => (
        <li key={c}>
          <Form method="post" className="inline-form">
            <input type="hidden" name="intent" value="remove-column" />
            <input type="hidden" name="list" value={watchlist.id} />
            <input type="hidden" name="column" value={c} />
            {getMetric(c)?.label ?? c}{' '}
            <button type="submit" className="button button--link">
              Remove<span className="visually-hidden"> column {getMetric(c)?.label ?? c}</span>
            </button>
          </Form>
        </li>
      ))}
    </ul>
  );
}
