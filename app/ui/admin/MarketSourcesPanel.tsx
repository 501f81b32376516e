import { Form } from '@remix-run/react';
import type { MarketSources } from '~/services/imports/market-sources.server';
import { Timestamp } from '../Timestamp';

// Admin › Market data sources: keys, last and next runs, last errors, and "Refresh now" (a job,
// so it shows in the jobs list), as a plain POST form.

export function MarketSourcesPanel({ data }: { data: MarketSources }) {
  return (
    <section className="card" aria-labelledby="sources-heading" id="sources">
      <h2 id="sources-heading">Market data sources</h2>
      <div className="table-scroll">
        <table className="data-table" data-testid="market-sources">
          <caption>Where market data comes from</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Key</th>
              <th scope="col">Last run</th>
              <th scope="col">Rows added</th>
              <th scope="col">Next run</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {data.sources.map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.name}</th>
                <td>{s.keyVar === null ? 'none needed' : s.keySet ? `${s.keyVar} set` : `${s.keyVar} not set`}</td>
                <td>
                  {s.lastRun ? (
                    <>
                      <Timestamp iso={s.lastRun.finished_at ?? s.lastRun.started_at} /> ({s.lastRun.status})
                    </>
                  ) : (
                    'never'
                  )}
                </td>
                <td>{s.lastSuccess?.detail ?? '—'}</td>
                <td>{s.nextRun ? <Timestamp iso={s.nextRun} /> : '—'}</td>
                <td>
                  {s.lastError ? (
                    <>
                      <Timestamp iso={s.lastError.started_at} />: {s.lastError.detail ?? 'no detail'}
                    </>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.canRefresh ? (
        <Form method="post" action="/admin" className="inline-form">
          <input type="hidden" name="intent" value="market-refresh" />
          <button type="submit" className="button">
            Refresh now
          </button>
        </Form>
      ) : (
        <p>
          Set TIINGO_API_KEY to fetch new daily prices, or SEC_USER_AGENT to fetch new SEC filings; the refresh then runs every day after
          the US close.
        </p>
      )}
      {data.refreshOff ? <p>The daily refresh is off (DATA_REFRESH_AT=off).</p> : null}
    </section>
  );
}
