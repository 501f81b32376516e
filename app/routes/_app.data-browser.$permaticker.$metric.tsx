import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { resolveCompanyId } from '~/services/company/companies.server';
import { pageError, pathNotFound } from '~/services/http/page-errors';
import { MAX_COMPANIES, MODE_LABELS, MODES, parseView, viewQuery } from '~/services/data-browser/data-browser';
import { browseMetric } from '~/services/data-browser/data-browser.server';
import { CATEGORY_LABELS, getMetric } from '~/services/metrics/catalogue';
import { formatMetricValue } from '~/services/metrics/format';
import { LineChart } from '~/ui/charts';
import { MetricSelect } from '~/ui/data-browser/MetricSelect';

// /data-browser/{permaticker}/{metric}: a metric's history for up to ten companies. Everything
// is in the URL (stable across ticker changes: keyed by permaticker), so it works without JS.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const permaticker = /^[1-9]\d{0,8}$/.test(params.permaticker ?? '') ? Number(params.permaticker) : null;
  const metric = getMetric(params.metric ?? '');
  if (permaticker === null || !metric) pathNotFound(request);
  const url = new URL(request.url);
  const parsed = parseView(url.searchParams);
  if (!parsed.ok) return data({ errors: parsed.errors, view: null, result: null, query: url.search }, { status: 400 });
  const view = parsed.view;
  // "Add a company" is a GET form field: resolve it and redirect to the canonical URL.
  if (view.add !== null || url.searchParams.has('metric_id')) {
    let compare = view.compare;
    if (view.add !== null) {
      const added = await resolveCompanyId(view.add).catch(pageError);
      if (added === null)
        return data(
          { errors: { add: [`No company with ticker or permaticker “${view.add}”.`] }, view: null, result: null, query: url.search },
          { status: 400 },
        );
      if (added !== permaticker && !compare.includes(added)) compare = [...compare, added];
    }
    const nextMetric = getMetric(url.searchParams.get('metric_id') ?? '') ? (url.searchParams.get('metric_id') as string) : metric.id;
    throw redirect(`/data-browser/${permaticker}/${nextMetric}${viewQuery({ ...view, compare: compare.slice(0, MAX_COMPANIES - 1) })}`);
  }
  const result = await browseMetric(permaticker, metric.id, view).catch(pageError);
  return { errors: null, view, result, query: url.search };
}

export default function DataBrowserMetric() {
  const { errors, view, result } = useLoaderData<typeof loader>();
  if (errors || !view || !result) {
    return (
      <>
        <h1>Data browser</h1>
        <section className="card callout callout--error" role="alert">
          <h2>Invalid parameters</h2>
          <ul>
            {Object.entries(errors ?? {}).map(([k, msgs]) => (
              <li key={k}>
                {k}: {msgs.join(' ')}
              </li>
            ))}
          </ul>
          <p>
            <Link to="?">Reset the view</Link>
          </p>
        </section>
      </>
    );
  }
  const { metric, companies } = result;
  const main = companies[0];
  const compare = companies.slice(1).map((c) => c.permaticker);
  const base = `/data-browser/${main.permaticker}/${metric.id}`;
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
      <Form method="get" className="card browser-controls" aria-label="View options">
        {compare.length > 0 ? <input type="hidden" name="compare" value={compare.join(',')} /> : null}
        <div className="field">
          <label htmlFor="db-metric">Metric</label>
          <MetricSelect id="db-metric" name="metric_id" value={metric.id} />
        </div>
        <fieldset>
          <legend>Scale</legend>
          {(['linear', 'log'] as const).map((s) => (
            <label key={s}>
              <input type="radio" name="scale" value={s} defaultChecked={view.scale === s} /> {s === 'linear' ? 'Linear' : 'Log'}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Values</legend>
          {MODES.map((m) => (
            <label key={m}>
              <input type="radio" name="mode" value={m} defaultChecked={view.mode === m} /> {MODE_LABELS[m]}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="db-from">From (YYYY-MM-DD)</label>
          <input id="db-from" name="from" defaultValue={view.from ?? ''} size={11} />
        </div>
        <div className="field">
          <label htmlFor="db-to">To (YYYY-MM-DD)</label>
          <input id="db-to" name="to" defaultValue={view.to ?? ''} size={11} />
        </div>
        <div className="field">
          <label htmlFor="db-as-of">As of (YYYY-MM-DD)</label>
          <input id="db-as-of" name="as_of" defaultValue={view.asOf ?? ''} size={11} />
        </div>
        <button type="submit" className="button">
          Apply
        </button>
      </Form>
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
            <label htmlFor="db-add">Add company (ticker or permaticker)</label>
            <input id="db-add" name="add" autoComplete="off" required />
            <button type="submit" className="button">
              Add
            </button>
          </Form>
        ) : (
          <p className="muted">At most {MAX_COMPANIES} companies can be compared.</p>
        )}
        {result.dropped > 0 ? <p className="muted">Only the first {MAX_COMPANIES} companies are shown.</p> : null}
      </section>
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
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="history-caption">
        <table className="data-table" data-testid="history-table">
          <caption id="history-caption">
            {metric.label}: {result.rows.length} dates (each value in force on the date)
          </caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              {companies.map((c) => (
                <th scope="col" key={c.permaticker}>
                  {c.ticker}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...result.rows].reverse().map((r) => (
              <tr key={r.date}>
                <th scope="row">{r.date}</th>
                {r.values.map((v, i) => (
                  <td key={companies[i].permaticker} className="num">
                    {fmt(v)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
