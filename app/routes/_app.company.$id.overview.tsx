import type { LoaderFunctionArgs } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { asOfQuery } from '~/services/http/as-of';
import { companyOverview, overviewForPage } from '~/services/company/company-pages.server';
import { companyPeers } from '~/services/company/peers.server';
import { companyPageContext } from '~/services/company/company-route.server';
import { pageError } from '~/services/http/page-errors';
import { LineChart } from '~/ui/charts';
import { AsOfLine, BadAsOf } from '~/ui/company/BadAsOf';
import { FilingRef } from '~/ui/company/FilingRef';
import { money } from '~/ui/company/format';
import { Change } from '~/ui/Change';
import { PeersTable } from '~/ui/company/PeersTable';
import { KeyStatistics } from '~/ui/company/KeyStatistics';
import { RangeBar } from '~/ui/company/RangeBar';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const { company, asOf, asOfError } = await companyPageContext(request, params.id);
  if (asOfError) return data({ error: asOfError, company, asOf, overview: null, peers: null }, { status: 400 });
  const [overview, peers] = await Promise.all([companyOverview(company, asOf), companyPeers(company, asOf)]).catch(pageError);
  return { error: null, company, asOf, overview: overviewForPage(overview), peers };
}

export default function CompanyOverview() {
  const { error, company, asOf, overview, peers } = useLoaderData<typeof loader>();
  if (error || !overview || !peers) return <BadAsOf message={error ?? ''} />;
  const m = overview.metrics.values;
  const q = asOfQuery(asOf);
  return (
    <section aria-labelledby="overview-title">
      <h2 id="overview-title">Overview</h2>
      <AsOfLine requested={asOf} date={overview.metrics.date} />
      {company.description ? <p className="company__description">{company.description}</p> : null}
      <div className="overview-top">
        <div className="card overview-price">
          <h3>Price</h3>
          <p className="big-number" data-testid="last-price">
            {money(m.price)}
          </p>
          <p>
            Change (1 day): <Change value={m.price_change_1d} testId="price-change" />
          </p>
          <RangeBar low={m.low_52w} high={m.high_52w} price={m.price} />
        </div>
        <KeyStatistics values={m} />
      </div>
      <h3>Price, last 12 months</h3>
      <LineChart
        label={`${company.ticker} adjusted close, last 12 months`}
        series={[{ id: 'close', label: `${company.ticker} close`, points: overview.prices.map((p) => ({ date: p.date, value: p.close })) }]}
        format={money}
        height={220}
      />
      <p>
        <Link to={`/company/${company.permaticker}/chart${q}`}>Full price chart</Link> ·{' '}
        <Link to={`/data-browser/${company.permaticker}/price`}>Price in the data browser</Link>
      </p>
      <PeersTable peers={peers} sector={company.sector} industry={company.industry} query={q} />
      <h3 id="filings-title">Latest filings</h3>
      {company.is_demo ? (
        <p className="muted">Demo company: accession numbers are fictional, so filings are listed without SEC links.</p>
      ) : null}
      {overview.filings.length === 0 ? (
        <p>No filings known on this date.</p>
      ) : (
        <ScrollRegion label="Latest filings table">
          <table className="data-table" aria-labelledby="filings-title">
            <thead>
              <tr>
                <th scope="col">Form</th>
                <th scope="col">Filed</th>
                <th scope="col">Period end</th>
                <th scope="col">Accession</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {overview.filings.map((f) => (
                <tr key={`${f.accession}-${f.filed}-${f.form}`}>
                  <td>{f.form ?? 'n/a'}</td>
                  <td>{f.filed}</td>
                  <td>{f.period_end}</td>
                  <td>{f.accession ?? 'n/a'}</td>
                  <td>
                    <FilingRef url={f.url} accession={f.accession} filed={f.filed} form={f.form} compact />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <p className="downloads">
        Data: <a href={`/api/v1/company-overview/${company.permaticker}${q}`}>JSON</a> ·{' '}
        <a href={`/api/v1/company-overview/${company.permaticker}${asOfQuery(asOf, { format: 'csv' })}`} download>
          CSV (filings)
        </a>
      </p>
    </section>
  );
}
