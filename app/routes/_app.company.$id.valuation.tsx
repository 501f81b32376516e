import type { LoaderFunctionArgs } from '@remix-run/node';
import { data } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { asOfQuery } from '~/services/http/as-of';
import { companyPageContext } from '~/services/company/company-route.server';
import { pageError } from '~/services/http/page-errors';
import { companyValuation } from '~/services/company/valuation.server';
import { getMetric } from '~/services/metrics/catalogue';
import { formatMetricValue } from '~/services/metrics/format';
import { LineChart } from '~/ui/charts';
import { AsOfLine, BadAsOf } from '~/ui/company/BadAsOf';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const { company, asOf, asOfError } = await companyPageContext(request, params.id);
  if (asOfError) return data({ error: asOfError, company, asOf, valuation: null }, { status: 400 });
  const valuation = await companyValuation(company, asOf).catch(pageError);
  return { error: null, company, asOf, valuation };
}

export default function CompanyValuation() {
  const { error, company, asOf, valuation } = useLoaderData<typeof loader>();
  if (error || !valuation) return <BadAsOf message={error ?? ''} />;
  return (
    <section aria-labelledby="val-title">
      <h2 id="val-title">Valuation</h2>
      <AsOfLine requested={asOf} date={valuation.asOf} what="Month-end snapshot" />
      {valuation.series.every((s) => s.points.length === 0) ? (
        <p>No month-end snapshots are stored for this company yet (run the data import to build them).</p>
      ) : (
        <>
          <ScrollRegion label="Valuation summary table">
            <table className="data-table" aria-labelledby="val-summary">
              <caption id="val-summary">
                Now against the company&apos;s own 5-year average and the {valuation.sector ?? 'unclassified'} sector median
              </caption>
              <thead>
                <tr>
                  <th scope="col">Multiple</th>
                  <th scope="col">Current</th>
                  <th scope="col">5-year average</th>
                  <th scope="col">Sector median</th>
                </tr>
              </thead>
              <tbody>
                {valuation.series.map((s) => {
                  const def = getMetric(s.metric)!;
                  return (
                    <tr key={s.metric}>
                      <th scope="row">{def.label}</th>
                      <td className="num">{formatMetricValue(def, s.current)}</td>
                      <td className="num">{formatMetricValue(def, s.fiveYearAverage)}</td>
                      <td className="num">{formatMetricValue(def, s.sectorMedian)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollRegion>
          <p className="muted">
            Negative multiples (losses) have no meaning as a price and show as n/a; they are left out of averages and medians.
          </p>
          {valuation.series.map((s) => {
            const def = getMetric(s.metric)!;
            return (
              <div key={s.metric} className="valuation-chart">
                <h3>{def.label}</h3>
                <LineChart
                  label={`${company.ticker} ${def.label} against its sector median, month ends`}
                  series={[
                    { id: 'company', label: company.ticker, points: s.points.map((p) => ({ date: p.date, value: p.company })) },
                    { id: 'sector', label: 'Sector median', points: s.points.map((p) => ({ date: p.date, value: p.sectorMedian })) },
                  ]}
                  format={(v) => formatMetricValue(def, v)}
                  height={200}
                />
              </div>
            );
          })}
        </>
      )}
      <p className="downloads">
        Data: <a href={`/api/v1/valuation/${company.permaticker}${asOfQuery(asOf)}`}>JSON</a> ·{' '}
        <a href={`/api/v1/valuation/${company.permaticker}${asOfQuery(asOf, { format: 'csv' })}`} download>
          CSV
        </a>
      </p>
    </section>
  );
}
