import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { asOfQuery, parseAsOf } from '~/services/http/as-of';
import { pageError } from '~/services/http/page-errors';
import { marketOverview } from '~/services/market-overview/market-overview.server';
import { LineChart } from '~/ui/charts';
import { AsOfForm } from '~/ui/company/AsOfForm';
import { FilingRef } from '~/ui/company/FilingRef';
import { money, percent } from '~/ui/company/format';
import { isDomainError } from '~/services/http/errors';
import { Change } from '~/ui/Change';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

// Home: a market overview from the data, as of a date.

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  const parsed = parseAsOf(new URL(request.url).searchParams.get('as_of'));
  if (!parsed.ok) return data({ error: parsed.message, asOf: null, overview: null, noData: null }, { status: 400 });
  try {
    return { error: null, asOf: parsed.asOf, overview: await marketOverview(parsed.asOf), noData: null };
  } catch (e) {
    // No market data yet: the home page still renders and says what to run.
    if (isDomainError(e) && e.status === 503) return { error: null, asOf: parsed.asOf, overview: null, noData: e.detail };
    pageError(e);
  }
}

export default function HomePage() {
  const { error, asOf, overview, noData } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Markets</h1>
      <p>Every figure in Quarry is point in time: it shows what was known on the day you pick, and links to the filing it came from.</p>
      <AsOfForm action="/" asOf={asOf} error={error} />
      <p>
        <Link to="/company">Find a company</Link> · <Link to="/data-browser">Browse any metric</Link> ·{' '}
        <Link to="/screener">Screen stocks</Link> · <Link to="/watchlist">Watchlist</Link>
      </p>
      {noData ? <p className="card">{noData}</p> : null}
      {overview ? (
        <>
          <p className="as-of-line" data-testid="as-of">
            Market as of <strong>{overview.date ?? 'n/a'}</strong>
            {overview.snapshotDate && overview.snapshotDate !== overview.date ? (
              <span className="muted"> (sectors and movers from the snapshot of {overview.snapshotDate})</span>
            ) : null}{' '}
            · {overview.companies} listed companies
          </p>
          {overview.hasDemo ? <p className="demo-note">Demo data: the companies in this market are fictional.</p> : null}
          <section aria-labelledby="bench-title">
            <h2 id="bench-title">Benchmark: equal-weighted universe, past 12 months</h2>
            <p>
              Total return: <strong data-testid="benchmark-return">{percent(overview.benchmarkReturn)}</strong>
            </p>
            <LineChart
              label="Equal-weighted universe index, past 12 months (start = 100)"
              series={[{ id: 'ew', label: 'Equal-weighted index', points: overview.benchmark }]}
              format={(v) => (v === null ? 'n/a' : v.toFixed(1))}
              height={220}
            />
          </section>
          <div className="overview-grid">
            <section aria-labelledby="movers-up" className="card">
              <h2 id="movers-up">Biggest gainers (1 day)</h2>
              <MoverTable rows={overview.gainers} labelledBy="movers-up" asOf={asOf} />
            </section>
            <section aria-labelledby="movers-down" className="card">
              <h2 id="movers-down">Biggest losers (1 day)</h2>
              <MoverTable rows={overview.losers} labelledBy="movers-down" asOf={asOf} />
            </section>
          </div>
          <section aria-labelledby="sectors-title">
            <h2 id="sectors-title">Sector performance (median total return)</h2>
            <ScrollRegion label="Sector performance table">
              <table className="data-table" aria-labelledby="sectors-title">
                <thead>
                  <tr>
                    <th scope="col">Sector</th>
                    <th scope="col">Companies</th>
                    <th scope="col">1 month</th>
                    <th scope="col">Year to date</th>
                    <th scope="col">12 months</th>
                  </tr>
                </thead>
                <tbody>
                  {overview.sectors.map((s) => (
                    <tr key={s.sector}>
                      <th scope="row">{s.sector}</th>
                      <td className="num">{s.companies}</td>
                      <td className="num">
                        <Change value={s.medianReturn1m} />
                      </td>
                      <td className="num">
                        <Change value={s.medianReturnYtd} />
                      </td>
                      <td className="num">
                        <Change value={s.medianReturn1y} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </section>
          <section aria-labelledby="filings-title">
            <h2 id="filings-title">Most recent filings</h2>
            <ScrollRegion label="Most recent filings table">
              <table className="data-table" aria-labelledby="filings-title">
                <thead>
                  <tr>
                    <th scope="col">Company</th>
                    <th scope="col">Form</th>
                    <th scope="col">Filing</th>
                  </tr>
                </thead>
                <tbody>
                  {overview.filings.map((f) => (
                    <tr key={`${f.permaticker}-${f.accession}-${f.form}`}>
                      <td>
                        <Link to={`/company/${f.permaticker}/overview${asOfQuery(asOf)}`}>{f.ticker}</Link> {f.name}
                      </td>
                      <td>{f.form ?? 'n/a'}</td>
                      <td>
                        <FilingRef url={f.url} accession={f.accession} filed={f.filed} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </section>
          <p className="downloads">
            Data: <a href={`/api/v1/market-overview${asOfQuery(asOf)}`}>JSON</a> · CSV:{' '}
            <a href={`/api/v1/market-overview${asOfQuery(asOf, { format: 'csv', table: 'sectors' })}`} download>
              sectors
            </a>
            ,{' '}
            <a href={`/api/v1/market-overview${asOfQuery(asOf, { format: 'csv', table: 'movers' })}`} download>
              movers
            </a>
            ,{' '}
            <a href={`/api/v1/market-overview${asOfQuery(asOf, { format: 'csv', table: 'filings' })}`} download>
              filings
            </a>
          </p>
        </>
      ) : null}
    </>
  );
}

function MoverTable({
  rows,
  labelledBy,
  asOf,
}: {
  rows: { permaticker: number; ticker: string; name: string; price: number | null; change: number | null }[];
  labelledBy: string;
  asOf: string | null;
}) {
  if (rows.length === 0) return <p>None.</p>;
  return (
    <ScrollRegion label={labelledBy === 'movers-up' ? 'Biggest gains table' : 'Biggest losses table'}>
      <table className="data-table" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">Company</th>
            <th scope="col">Price</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.permaticker}>
              <td>
                <Link to={`/company/${r.permaticker}/overview${asOfQuery(asOf)}`}>{r.ticker}</Link> {r.name}
              </td>
              <td className="num">{money(r.price)}</td>
              <td className="num">
                <Change value={r.change} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

export const meta: MetaFunction = () => [{ title: 'Quarry — point-in-time market data, screens and backtests' }];
export const handle = { pageName: 'home' };
