import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { guard } from '~/services/auth/guard.server';
import { resolveCompanyText } from '~/services/company/companies.server';
import { pageError } from '~/services/http/page-errors';
import { getMetric, metricsByCategory } from '~/services/metrics/catalogue';
import { MetricSelect } from '~/ui/data-browser/MetricSelect';

// /data-browser: pick a company and a metric (a GET form), then land on the stable URL keyed by
// permaticker. Guests may use it.

const Query = z.object({ company: z.string().trim().max(40).optional(), metric: z.string().max(60).optional() });

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  const q = Query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const company = q.success ? (q.data.company ?? '') : '';
  const metric = q.success ? (q.data.metric ?? '') : '';
  if (company === '' && metric === '') return { error: null, company, metric };
  if (company === '') return data({ error: 'Enter a ticker, a name or a permaticker.', company, metric }, { status: 400 });
  if (!getMetric(metric)) return data({ error: `Unknown metric: ${metric || '(none)'}.`, company, metric }, { status: 400 });
  const permaticker = await resolveCompanyText(company).catch(pageError);
  if (permaticker === null)
    return data({ error: `No company matches “${company}”: try a ticker, a name or a permaticker.`, company, metric }, { status: 400 });
  throw redirect(`/data-browser/${permaticker}/${metric}`);
}

export default function DataBrowserPage() {
  const { error, company, metric } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Data browser</h1>
      <p>The history of any metric of any company, with the filing each value comes from. Compare up to ten companies.</p>
      <Form method="get" className="card browser-pick" aria-label="Pick a company and a metric">
        <div className="field">
          <label htmlFor="db-company">Company (ticker, name or permaticker)</label>
          <input
            id="db-company"
            name="company"
            defaultValue={company}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'db-error' : undefined}
          />
        </div>
        <div className="field">
          <label htmlFor="db-metric">Metric</label>
          <MetricSelect id="db-metric" name="metric" value={metric || undefined} />
        </div>
        <button type="submit" className="button button--primary">
          Show history
        </button>
        {error ? (
          <p id="db-error" className="field__error" role="alert">
            {error}
          </p>
        ) : null}
      </Form>
      <h2>Metrics</h2>
      {metricsByCategory().map((g) => (
        <section key={g.category} aria-labelledby={`cat-${g.category}`} className="metric-group">
          <h3 id={`cat-${g.category}`}>{g.label}</h3>
          <dl className="metric-defs">
            {g.metrics.map((m) => (
              <div key={m.id}>
                <dt>
                  {m.label} <code>{m.id}</code>
                </dt>
                <dd>{m.definition}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <p>
        Looking for a company first? <Link to="/company">Search companies</Link>.
      </p>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: 'Data browser · Quarry' }];
export const handle = { pageName: 'data-browser' };
