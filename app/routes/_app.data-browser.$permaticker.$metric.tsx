import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { resolveCompanyText } from '~/services/company/companies.server';
import { MODE_LABELS, viewQuery } from '~/services/data-browser/data-browser';
import { dataBrowserPage } from '~/services/data-browser/page.server';
import { orPageError, pathNotFound } from '~/services/http/page-errors';
import { CATEGORY_LABELS } from '~/services/metrics/catalogue';
import { formatMetricValue } from '~/services/metrics/format';
import { LineChart } from '~/ui/charts';
import { CompareCompanies } from '~/ui/data-browser/CompareCompanies';
import { HistoryTable } from '~/ui/data-browser/HistoryTable';
import { InvalidView } from '~/ui/data-browser/InvalidView';
import { ViewOptions } from '~/ui/data-browser/ViewOptions';

// /data-browser/{permaticker}/{metric}: a metric's history for up to ten companies. Everything
// is in the URL (stable across ticker changes: keyed by permaticker), so it works without JS.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const url = new URL(request.url);
  const page = await orPageError(dataBrowserPage(params.permaticker, params.metric, url.searchParams, resolveCompanyText));
  switch (page.kind) {
    case 'not-found':
      return pathNotFound(request);
    case 'redirect':
      throw redirect(page.to);
    case 'invalid':
      return data({ errors: page.errors, view: null, result: null, addError: null }, { status: 400 });
    case 'view':
      return data({ errors: null, view: page.view, result: page.result, addError: page.addError }, { status: page.addError ? 400 : 200 });
  }
}

export default function DataBrowserMetric() {
  const { errors, view, result, addError } = useLoaderData<typeof loader>();
  if (errors || !view || !result) return <InvalidView errors={errors ?? {}} />;
  const { metric, companies } = result;
  const main = companies[0];
  const compare = companies.slice(1).map((c) => c.permaticker);
  const fmt = (v: number | null) => formatMetricValue(metric, v);
  const csvQuery = viewQuery({ ...view, compare });
  const csvHref = `/api/v1/data-browser/${main.permaticker}/${metric.id}${csvQuery ? `${csvQuery}&` : '?'}format=csv`;
  return (
    <>
      <h1>
        {metric.label} · {companies.map((c) => c.ticker).join(', ')}
      </h1>
      <p className="muted">
        {CATEGORY_LABELS[metric.category]} · {metric.definition}
      </p>
      {companies.some((c) => c.is_demo) ? <p className="demo-note">Demo data: these companies and their numbers are fictional.</p> : null}
      <p className="as-of-line" data-testid="as-of">
        Values as known on <strong>{view.asOf ?? 'the latest date'}</strong> · {MODE_LABELS[view.mode]} · from{' '}
        {result.from ?? 'the first value'} to {view.to ?? 'the last value'}
      </p>
      <ViewOptions view={view} metricId={metric.id} compare={compare} />
      <CompareCompanies
        companies={companies}
        view={view}
        base={`/data-browser/${main.permaticker}/${metric.id}`}
        dropped={result.dropped}
        addError={addError}
      />
      <LineChart
        label={`${metric.label} of ${companies.map((c) => c.ticker).join(', ')}`}
        series={result.series.map((s) => ({
          id: String(s.permaticker),
          label: s.ticker,
          points: s.points.map((p) => ({ date: p.date, value: p.value })),
        }))}
        format={fmt}
        scale={view.scale}
      />
      <p className="downloads">
        Download:{' '}
        <a href={csvHref} download data-testid="csv-link">
          CSV of this table
        </a>{' '}
        · <a href={`/api/v1/data-browser/${main.permaticker}/${metric.id}${csvQuery}`}>JSON</a>
      </p>
      <HistoryTable result={result} format={fmt} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  {
    title: d?.result
      ? `${d.result.metric.label} · ${d.result.companies.map((c) => c.ticker).join(', ')} · Data browser · Quarry`
      : 'Data browser · Quarry',
  },
];
export const handle = { pageName: 'data-browser' };
