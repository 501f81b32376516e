import { Form, Link } from '@remix-run/react';
import { getMetric } from '~/services/metrics/catalogue';
import { formatMetricValue } from '~/services/metrics/format';
import { Pagination } from '~/ui/tables/Pagination';
import { SortHeader } from '~/ui/tables/SortHeader';
import { screenerSearch } from './links';
import { metricLabel, type ScreenerView } from './view';

// The results of a screen: the count, the actions (CSV of every result, save, backtest), and one
// sortable page of the passing securities with explain and add-to-watchlist per row.

function ResultActions({ data, search, pathWithSearch }: { data: ScreenerView; search: string; pathWithSearch: string }) {
  const csvHref = `/screener/csv${screenerSearch(search, { explain: null, page: null })}`;
  return (
    <p className="screener-actions">
      <a href={csvHref} className="button" download>
        Download CSV<span className="visually-hidden"> of all {data.results?.count ?? 0} results</span>
      </a>
      {data.signedIn ? (
        <Link to={screenerSearch(search, { modal: 'save', explain: null })} className="button">
          Save screen…
        </Link>
      ) : (
        <span>
          <Link to="/register">Register</Link> or <Link to={`/login?redirectTo=${encodeURIComponent(pathWithSearch)}`}>sign in</Link> to
          save screens.
        </span>
      )}
      {data.saved && data.signedIn ? (
        <Form method="post" action="/screener/manage" className="inline-form">
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="id" value={data.saved.id} />
          <input type="hidden" name="query" value={data.query} />
          <button type="submit" className="button">
            Save changes to “{data.saved.name}”
          </button>
        </Form>
      ) : null}
      {data.saved ? (
        <Link to={`/backtest?screener_id=${encodeURIComponent(data.saved.id)}`} className="button">
          Backtest this screen
        </Link>
      ) : (
        <span className="muted">Save the screen to backtest it.</span>
      )}
    </p>
  );
}

export function ScreenerResults({ data, search, pathWithSearch }: { data: ScreenerView; search: string; pathWithSearch: string }) {
  const r = data.results;
  if (!r) return null;
  const ranked = data.screen.ranking.length > 0;
  const header = (key: string, text: string, numeric = false) => (
    <SortHeader
      key={key}
      label={text}
      sortKey={key}
      sort={data.sort}
      numeric={numeric}
      // Rank 1 is the best: ranks start ascending, like text; metric values start high.
      descendingFirst={numeric && key !== 'rank'}
      href={(dir) => screenerSearch(search, { sort: `${key}:${dir}`, page: null })}
    />
  );
  return (
    <section aria-labelledby="results-heading">
      <h2 id="results-heading">Results</h2>
      <p className="screener-summary" data-testid="screener-count">
        <strong>{r.count}</strong> {r.count === 1 ? 'match' : 'matches'} of {r.universeCount} in the universe, as of{' '}
        <time dateTime={r.asOf}>{r.asOf}</time>.
      </p>
      <ResultActions data={data} search={search} pathWithSearch={pathWithSearch} />
      {r.rows.length === 0 ? (
        <p>No security passes every rule.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" data-testid="screener-results">
            <caption className="visually-hidden">
              Securities passing the screen, page {r.page} of {r.pageCount}
            </caption>
            <thead>
              <tr>
                {ranked ? header('rank', 'Rank', true) : null}
                {header('ticker', 'Ticker')}
                {header('name', 'Name')}
                {header('sector', 'Sector')}
                {r.columns.map((c) => header(c, metricLabel(c), true))}
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {r.rows.map((row) => (
                <tr key={row.permaticker}>
                  {ranked ? <td className="num">{row.rank ?? 'n/a'}</td> : null}
                  <th scope="row">
                    <Link to={`/company/${encodeURIComponent(row.ticker)}`}>{row.ticker}</Link>
                  </th>
                  <td>{row.name}</td>
                  <td>{row.sector ?? 'n/a'}</td>
                  {r.columns.map((c) => {
                    const def = getMetric(c);
                    return (
                      <td key={c} className="num">
                        {def ? formatMetricValue(def, row.values[c]) : String(row.values[c] ?? 'n/a')}
                      </td>
                    );
                  })}
                  <td className="screener-row-actions">
                    <Link to={screenerSearch(search, { explain: String(row.permaticker) })}>
                      Explain<span className="visually-hidden"> {row.ticker}</span>
                    </Link>
                    {data.signedIn ? (
                      <Form method="post" action="/watchlist" className="inline-form">
                        <input type="hidden" name="intent" value="add" />
                        <input type="hidden" name="permaticker" value={row.permaticker} />
                        <input type="hidden" name="redirect_to" value={pathWithSearch} />
                        <button type="submit" className="button button--link">
                          Add<span className="visually-hidden"> {row.ticker}</span> to watchlist
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        label="Result pages"
        page={r.page}
        pageCount={r.pageCount}
        href={(page) => screenerSearch(search, { page: String(page) })}
      />
    </section>
  );
}
