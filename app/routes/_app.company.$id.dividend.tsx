import type { LoaderFunctionArgs } from '@remix-run/node';
import { data } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { asOfQuery } from '~/services/http/as-of';
import { companyDividends } from '~/services/company/company-pages.server';
import { companyPageContext } from '~/services/company/company-route.server';
import { pageError } from '~/services/http/page-errors';
import { formatByFormat } from '~/services/metrics/format';
import { BarChart } from '~/ui/charts';
import { AsOfLine, BadAsOf } from '~/ui/company/BadAsOf';
import { money, percent } from '~/ui/company/format';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

/** Dividends per share need more than two decimals (0.0825 a quarter is common). */
const perShare = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v)
    ? 'n/a'
    : `$${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(v)}`;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const { company, asOf, asOfError } = await companyPageContext(request, params.id);
  if (asOfError) return data({ error: asOfError, company, asOf, dividends: null }, { status: 400 });
  const dividends = await companyDividends(company, asOf).catch(pageError);
  return { error: null, company, asOf, dividends };
}

export default function CompanyDividend() {
  const { error, company, asOf, dividends } = useLoaderData<typeof loader>();
  if (error || !dividends) return <BadAsOf message={error ?? ''} />;
  const m = dividends.metrics.values;
  const thisYear = dividends.metrics.date?.slice(0, 4);
  return (
    <section aria-labelledby="div-title">
      <h2 id="div-title">Dividends</h2>
      <AsOfLine requested={asOf} date={dividends.metrics.date} />
      <dl className="key-values card">
        <dt>Dividend per share (TTM)</dt>
        <dd data-testid="dividend-ttm">{perShare(m.dividend_ttm)}</dd>
        <dt>Dividend yield (TTM)</dt>
        <dd data-testid="dividend-yield">{percent(m.dividend_yield)}</dd>
        <dt>Growth, 1 year</dt>
        <dd>{percent(m.dividend_growth_1y)}</dd>
        <dt>Growth, 3-year CAGR</dt>
        <dd>{percent(m.dividend_cagr_3y)}</dd>
        <dt>Growth, 5-year CAGR</dt>
        <dd>{percent(m.dividend_cagr_5y)}</dd>
        <dt>Payout ratio (TTM)</dt>
        <dd>{percent(m.payout_ratio)}</dd>
        <dt>Years of dividend growth</dt>
        <dd>{formatByFormat('years', m.dividend_growth_streak)}</dd>
        <dt>Years paying</dt>
        <dd>{formatByFormat('years', m.dividend_paying_streak)}</dd>
        <dt>Price</dt>
        <dd>{money(m.price)}</dd>
      </dl>
      {dividends.history.length === 0 ? (
        <p>No cash dividends known on this date.</p>
      ) : (
        <>
          <h3 id="annual-title">Per calendar year</h3>
          <BarChart
            label={`${company.ticker} dividends per share by calendar year`}
            seriesLabel="Dividends per share"
            points={dividends.annual.map((a) => ({ date: String(a.year), value: a.total }))}
            format={perShare}
            height={200}
            colorIndex={1}
          />
          <ScrollRegion label="Dividends per year table">
            <table className="data-table" aria-labelledby="annual-title">
              <thead>
                <tr>
                  <th scope="col">Year</th>
                  <th scope="col">Payments</th>
                  <th scope="col">Total per share (today&apos;s shares)</th>
                  <th scope="col">Growth</th>
                </tr>
              </thead>
              <tbody>
                {[...dividends.annual].reverse().map((a) => (
                  <tr key={a.year}>
                    <th scope="row">
                      {a.year}
                      {String(a.year) === thisYear ? ' (to date)' : ''}
                    </th>
                    <td className="num">{a.payments}</td>
                    <td className="num">{perShare(a.total)}</td>
                    <td className="num">{percent(a.growth)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <h3 id="history-title">History</h3>
          <ScrollRegion label="Dividend history table">
            <table className="data-table" aria-labelledby="history-title">
              <thead>
                <tr>
                  <th scope="col">Ex-date</th>
                  <th scope="col">Amount as paid</th>
                  <th scope="col">Amount in today&apos;s shares</th>
                </tr>
              </thead>
              <tbody>
                {dividends.history.map((d) => (
                  <tr key={d.date}>
                    <th scope="row">{d.date}</th>
                    <td className="num">{perShare(d.amount)}</td>
                    <td className="num">{perShare(d.adjusted)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}
      <p className="downloads">
        Data: <a href={`/api/v1/dividends/${company.permaticker}${asOfQuery(asOf)}`}>JSON</a> ·{' '}
        <a href={`/api/v1/dividends/${company.permaticker}${asOfQuery(asOf, { format: 'csv' })}`} download>
          CSV
        </a>
      </p>
    </section>
  );
}
