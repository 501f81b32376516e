import { Form, Link } from '@remix-run/react';
import { MAX_COLUMN_SET_NAME } from '~/services/screener/column-sets';

// Saved column sets above the screener results: a select of the user's sets ("Default" = the
// results' default columns) that shows the same results with that set's columns (a GET form:
// the set's id goes to /screener?colset=…, which answers with the columns in the URL), and a
// form that saves the metric columns shown now under a name (a POST to /screener/columns that comes
// back here). Both are plain forms, so they work without JavaScript. Guests are asked to sign in.

export type ColumnSetOption = { id: string; name: string; columns: string[] };

/** Parameters of the results' address that a change of columns does not keep. */
const DROPPED = new Set(['col', 'cols', 'colset', 'page', 'explain', 'modal']);

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function ColumnSetBar({
  sets,
  columns,
  shown,
  search,
  pathWithSearch,
  signedIn,
}: {
  sets: ColumnSetOption[];
  /** The screen's chosen columns (empty = the default ones). */
  columns: string[];
  /** The metric columns the results show now (what "Save" keeps). */
  shown: string[];
  search: string;
  pathWithSearch: string;
  signedIn: boolean;
}) {
  const kept = [...new URLSearchParams(search).entries()].filter(([k]) => !DROPPED.has(k));
  // The set whose columns the results show (saved from them, or chosen as the screen's columns).
  const current = columns.length === 0 ? 'default' : (sets.find((s) => same(s.columns, shown) || same(s.columns, columns))?.id ?? '');
  return (
    <div className="screener-colsets" data-testid="column-sets">
      <Form method="get" action="/screener" className="screener-colsets__form" preventScrollReset>
        <input type="hidden" name="from" value={new URLSearchParams(kept).toString()} />
        <label htmlFor="colset">Column set</label>
        <select id="colset" name="colset" defaultValue={current} key={current}>
          {current === '' ? (
            <option value="" disabled>
              Chosen columns (not saved)
            </option>
          ) : null}
          <option value="default">Default columns</option>
          {sets.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.columns.length} {s.columns.length === 1 ? 'column' : 'columns'})
            </option>
          ))}
        </select>
        <button type="submit" className="button">
          Show columns
        </button>
      </Form>
      {signedIn ? (
        <Form method="post" action="/screener/columns" className="screener-colsets__form">
          <input type="hidden" name="intent" value="create" />
          <input type="hidden" name="columns" value={shown.join(',')} />
          <input type="hidden" name="return_to" value={pathWithSearch} />
          <label htmlFor="colset-name">Save these columns as</label>
          <input
            id="colset-name"
            name="name"
            required
            maxLength={MAX_COLUMN_SET_NAME}
            autoComplete="off"
            placeholder="e.g. Value view"
            aria-describedby="colset-shown"
          />
          <button type="submit" className="button">
            Save column set
          </button>
          <span id="colset-shown" className="visually-hidden">
            Saves the {shown.length} metric columns the results show now.
          </span>
          <Link to="/screener/columns">Manage column sets</Link>
        </Form>
      ) : (
        <span className="muted">
          <Link to={`/login?redirectTo=${encodeURIComponent(pathWithSearch)}`}>Sign in</Link> to save column sets.
        </span>
      )}
    </div>
  );
}
