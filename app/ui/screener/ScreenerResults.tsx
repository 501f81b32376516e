import { Form, Link } from '@remix-run/react';
import { Fragment } from 'react';
import { getMetric } from '~/services/metrics/catalogue';
import { formatMetricValue } from '~/services/metrics/format';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '~/services/screener/page-size';
import { InlineStatus, usePageNotice } from '~/ui/forms/PageNotice';
import { Pagination } from '~/ui/tables/Pagination';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';
import { SortHeader } from '~/ui/tables/SortHeader';
import { ColumnSetBar, type ColumnSetOption } from './ColumnSets';
import { screenerSearch } from './links';
import { ScreenExplanation } from './ScreenExplanation';
import { metricLabel, type ScreenerView } from './view';
import { BULK_FORM_ID, BulkWatchlistAdd, RowWatchlistAdd } from './WatchlistAdd';

// The results of a screen: the count, the actions (CSV of every result, save, backtest, add to a
// watchlist), and one sortable page of the passing securities in its own scroll region, with
// explain (drawn under its row) and add-to-watchlist per row, and the page size.

type View = ScreenerView & { lists: { id: string; name: string; isDefault: boolean }[]; columnSets: ColumnSetOption[] };

function ResultActions({ data, search, pathWithSearch }: { data: View; search: string; pathWithSearch: string }) {
  const csvHref = `/screener/csv${screenerSearch(search, { explain: null, page: null, size: null })}`;
  return (
    <div className="screener-actions">
      <a href={csvHref} className="button" download>
        Download CSV<span className="visually-hidden"> of all {data.results?.count ?? 0} results</span>
      </a>
      {data.signedIn ? (
        <Link to={screenerSearch(search, { modal: 'save', explain: null })} className="button" preventScrollReset>
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
    </div>
  );
}

function PageSizes({ current, search }: { current: number; search: string }) {
  return (
    <nav aria-label="Rows per page" className="screener-sizes">
      <span>Rows per page:</span>
      {PAGE_SIZES.map((n) =>
        n === current ? (
          <strong key={n} aria-current="true">
            {n}
          </strong>
        ) : (
          <Link key={n} to={screenerSearch(search, { size: n === DEFAULT_PAGE_SIZE ? null : String(n), page: null })} preventScrollReset>
            {n}
          </Link>
        ),
      )}
    </nav>
  );
}

export function ScreenerResults({ data, search, pathWithSearch }: { data: View; search: string; pathWithSearch: string }) {
  const notice = usePageNotice();
  const r = data.results;
  if (!r) return null;
  // The answer of a form posted without JavaScript: beside its row when that row is on this page.
  const rowNotice = notice?.row !== undefined && r.rows.some((row) => row.permaticker === notice.row) ? notice : null;
  const ranked = data.screen.ranking.length > 0;
  const explained = data.explanation && r.rows.some((row) => row.permaticker === data.explanation?.permaticker) ? data.explanation : null;
  const width = (ranked ? 1 : 0) + (data.signedIn ? 1 : 0) + 4 + r.columns.length;
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
    <section aria-labelledby="results-heading" className="screener-results">
      <h2 id="results-heading">Results</h2>
      <p className="screener-summary" data-testid="screener-count">
        <strong>{r.count}</strong> {r.count === 1 ? 'match' : 'matches'} of {r.universeCount} in the universe, as of{' '}
        <time dateTime={r.asOf}>{r.asOf}</time>.
      </p>
      {notice && !rowNotice ? (
        <p className="screener-notice" data-testid="screener-notice">
          <InlineStatus reply={notice} />
        </p>
      ) : null}
      <ResultActions data={data} search={search} pathWithSearch={pathWithSearch} />
      <ColumnSetBar
        sets={data.columnSets}
        columns={data.screen.columns}
        shown={r.columns}
        search={search}
        pathWithSearch={pathWithSearch}
        signedIn={data.signedIn}
      />
      {data.signedIn ? <BulkWatchlistAdd lists={data.lists} query={data.query} returnTo={pathWithSearch} count={r.count} /> : null}
      {/* An explanation of a security that is not on this page shows above the table. */}
      {data.explanation && !explained ? <ScreenExplanation data={data} search={search} /> : null}
      {r.rows.length === 0 ? (
        <p>No security passes every rule.</p>
      ) : (
        <ScrollRegion label="Screen results table">
          <table className="data-table" data-testid="screener-results">
            <caption className="visually-hidden">
              Securities passing the screen, page {r.page} of {r.pageCount}
            </caption>
            <thead>
              <tr>
                {data.signedIn ? (
                  <th scope="col">
                    <span className="visually-hidden">Select</span>
                  </th>
                ) : null}
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
                <Fragment key={row.permaticker}>
                  <tr id={`row-${row.permaticker}`}>
                    {data.signedIn ? (
                      <td>
                        <input
                          type="checkbox"
                          name="permaticker"
                          value={row.permaticker}
                          form={BULK_FORM_ID}
                          aria-label={`Select ${row.ticker}`}
                        />
                      </td>
                    ) : null}
                    {ranked ? <td className="num">{row.rank ?? 'n/a'}</td> : null}
                    <th scope="row">
                      <Link to={`/company/${encodeURIComponent(row.ticker)}`}>{row.ticker}</Link>
                    </th>
                    <td className="screener-name">{row.name}</td>
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
                      <Link
                        to={`${screenerSearch(search, { explain: String(row.permaticker) })}#row-${row.permaticker}`}
                        preventScrollReset
                      >
                        Explain<span className="visually-hidden"> {row.ticker}</span>
                      </Link>
                      {data.signedIn ? (
                        <RowWatchlistAdd
                          permaticker={row.permaticker}
                          ticker={row.ticker}
                          returnTo={pathWithSearch}
                          notice={rowNotice?.row === row.permaticker ? rowNotice : null}
                        />
                      ) : null}
                    </td>
                  </tr>
                  {explained && explained.permaticker === row.permaticker ? (
                    <tr className="screener-explain-row">
                      <td colSpan={width}>
                        <ScreenExplanation data={data} search={search} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <div className="screener-paging">
        <Pagination
          label="Result pages"
          page={r.page}
          pageCount={r.pageCount}
          href={(page) => screenerSearch(search, { page: String(page) })}
        />
        <PageSizes current={data.pageSize} search={search} />
      </div>
    </section>
  );
}
