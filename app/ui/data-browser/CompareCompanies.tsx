import { Form, Link } from '@remix-run/react';
import { MAX_COMPANIES, viewQuery, type View } from '~/services/data-browser/data-browser';
import type { BrowserCompany } from '~/services/data-browser/data-browser.server';

/** The companies compared: links to remove each one, and a GET form to add another. */
export function CompareCompanies({
  companies,
  view,
  base,
  dropped,
  addError = null,
}: {
  companies: BrowserCompany[];
  view: Omit<View, 'permatickers'>;
  /** The page's path without the query. */
  base: string;
  /** Companies left out beyond the limit. */
  dropped: number;
  /** Why the last "add" found no company. */
  addError?: string | null;
}) {
  const compare = companies.slice(1).map((c) => c.permaticker);
  return (
    <section aria-labelledby="compare-title" className="browser-compare">
      <h2 id="compare-title">
        Companies ({companies.length} of {MAX_COMPANIES})
      </h2>
      <ul>
        {companies.map((c, i) => (
          <li key={c.permaticker}>
            <Link to={`/company/${c.permaticker}/overview`}>
              {c.ticker} · {c.name}
            </Link>
            {c.is_demo ? <span className="badge badge--demo">demo</span> : null}
            {i > 0 ? (
              <Link
                className="remove-link"
                to={`${base}${viewQuery({ ...view, compare: compare.filter((p) => p !== c.permaticker) })}`}
                aria-label={`Remove ${c.ticker} from the comparison`}
              >
                Remove
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
      {companies.length < MAX_COMPANIES ? (
        <Form method="get" className="inline-form" aria-label="Add a company to compare">
          {compare.length > 0 ? <input type="hidden" name="compare" value={compare.join(',')} /> : null}
          {view.scale !== 'linear' ? <input type="hidden" name="scale" value={view.scale} /> : null}
          {view.mode !== 'latest' ? <input type="hidden" name="mode" value={view.mode} /> : null}
          {view.from ? <input type="hidden" name="from" value={view.from} /> : null}
          {view.to ? <input type="hidden" name="to" value={view.to} /> : null}
          {view.asOf ? <input type="hidden" name="as_of" value={view.asOf} /> : null}
          <label htmlFor="db-add">Add company (ticker, name or permaticker)</label>
          <input
            id="db-add"
            name="add"
            autoComplete="off"
            required
            aria-invalid={addError ? true : undefined}
            aria-describedby={addError ? 'db-add-error' : undefined}
          />
          <button type="submit" className="button">
            Add
          </button>
          {addError ? (
            <p id="db-add-error" className="field__error" role="alert">
              {addError}
            </p>
          ) : null}
        </Form>
      ) : (
        <p className="muted">At most {MAX_COMPANIES} companies can be compared.</p>
      )}
      {dropped > 0 ? <p className="muted">Only the first {MAX_COMPANIES} companies are shown.</p> : null}
    </section>
  );
}
