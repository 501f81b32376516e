import type { LoaderFunctionArgs } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { guard } from '~/services/auth/guard.server';
import { asOfQuery } from '~/services/http/as-of';
import { companyChart } from '~/services/company/company-pages.server';
import { RANGES } from '~/services/company/price-ranges';
import { companyPageContext } from '~/services/company/company-route.server';
import { pageError } from '~/services/http/page-errors';
import { BarChart, LineChart, type ChartSeries } from '~/ui/charts';
import { AsOfLine, BadAsOf } from '~/ui/company/BadAsOf';
import { money, shares } from '~/ui/company/format';

const Query = z.object({
  range: z.enum(RANGES).catch('1Y'),
  adjusted: z.enum(['1', '0']).catch('1'),
  ma: z.enum(['1', '0']).catch('0'),
});

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const { company, asOf, asOfError, url } = await companyPageContext(request, params.id);
  const q = Query.parse(Object.fromEntries(url.searchParams));
  if (asOfError) return data({ error: asOfError, company, asOf, q, chart: null }, { status: 400 });
  const chart = await companyChart(company, asOf, q.range, q.adjusted === '1').catch(pageError);
  return { error: null, company, asOf, q, chart };
}

export default function CompanyChart() {
  const { error, company, asOf, q, chart } = useLoaderData<typeof loader>();
  if (error || !chart) return <BadAsOf message={error ?? ''} />;
  const link = (over: Partial<typeof q>) => {
    const n = { ...q, ...over };
    return `?${new URLSearchParams({ ...(asOf ? { as_of: asOf } : {}), range: n.range, adjusted: n.adjusted, ma: n.ma }).toString()}`;
  };
  const series: ChartSeries[] = [
    { id: 'close', label: `${company.ticker} close`, points: chart.prices.map((p) => ({ date: p.date, value: p.close })) },
  ];
  if (q.ma === '1') {
    series.push({ id: 'sma50', label: 'SMA 50', points: chart.prices.map((p, i) => ({ date: p.date, value: chart.sma50[i] })) });
    series.push({ id: 'sma200', label: 'SMA 200', points: chart.prices.map((p, i) => ({ date: p.date, value: chart.sma200[i] })) });
  }
  const kind = q.adjusted === '1' ? 'split-adjusted' : 'as traded (unadjusted)';
  return (
    <section aria-labelledby="chart-title">
      <h2 id="chart-title">Price chart</h2>
      <AsOfLine requested={asOf} date={chart.end} what="Prices" />
      <nav aria-label="Chart range" className="segmented">
        {RANGES.map((r) => (
          <Link key={r} to={link({ range: r })} aria-current={r === q.range ? 'page' : undefined} preventScrollReset>
            {r}
          </Link>
        ))}
      </nav>
      <nav aria-label="Chart options" className="segmented">
        <Link to={link({ adjusted: '1' })} aria-current={q.adjusted === '1' ? 'true' : undefined} preventScrollReset>
          Adjusted
        </Link>
        <Link to={link({ adjusted: '0' })} aria-current={q.adjusted === '0' ? 'true' : undefined} preventScrollReset>
          Unadjusted
        </Link>
        <Link to={link({ ma: q.ma === '1' ? '0' : '1' })} aria-pressed={q.ma === '1'} role="button" preventScrollReset>
          Moving averages (50, 200)
        </Link>
      </nav>
      <LineChart label={`${company.ticker} ${kind} close, range ${q.range}`} series={series} format={money} />
      <h3>Volume</h3>
      <BarChart
        label={`${company.ticker} daily volume, range ${q.range}`}
        seriesLabel="Volume"
        points={chart.prices.map((p) => ({ date: p.date, value: p.volume }))}
        format={shares}
        height={160}
        colorIndex={5}
      />
      <p className="downloads">
        Data:{' '}
        <a
          href={`/api/v1/prices/${company.permaticker}?${new URLSearchParams({ ...(chart.from ? { from: chart.from } : {}), to: chart.end ?? '', adjusted: q.adjusted === '1' ? 'true' : 'false' }).toString()}`}
        >
          JSON
        </a>
        {' · '}
        <a
          href={`/api/v1/company-prices/${company.permaticker}${asOfQuery(asOf, { range: q.range, adjusted: q.adjusted, format: 'csv' })}`}
          download
        >
          CSV
        </a>
      </p>
    </section>
  );
}
