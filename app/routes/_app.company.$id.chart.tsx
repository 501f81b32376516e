import type { LoaderFunctionArgs } from '@remix-run/node';
import { data, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { asOfQuery } from '~/services/http/as-of';
import { companyPageContext } from '~/services/company/company-route.server';
import { chartQuery, priceChartPage } from '~/services/company/price-chart.server';
import { pageError } from '~/services/http/page-errors';
import { AsOfLine, BadAsOf } from '~/ui/company/BadAsOf';
import { PriceChart } from '~/ui/company/PriceChart';

// /company/{id}/chart?range=&basis=adjusted|raw&compare=AAA,BBB&add=&ma=1: the price chart tab.
// Every control is a link or a GET form; "add" resolves a ticker or name and redirects to the
// address with the longer compare list (or shows why it was not added).

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const { company, asOf, asOfError, url } = await companyPageContext(request, params.id);
  if (asOfError) return data({ error: asOfError, company, asOf, view: null }, { status: 400 });
  const page = await priceChartPage(company, asOf, chartQuery(url.searchParams)).catch(pageError);
  if (page.kind === 'redirect') throw redirect(`${url.pathname}${page.to}`);
  return { error: null, company, asOf, view: page.view };
}

export default function CompanyChart() {
  const { error, company, asOf, view } = useLoaderData<typeof loader>();
  if (error || !view) return <BadAsOf message={error ?? ''} />;
  return (
    <section aria-labelledby="chart-title">
      <h2 id="chart-title">Price chart</h2>
      <AsOfLine requested={asOf} date={view.end} what="Prices" />
      <PriceChart company={company} asOf={asOf} view={view} />
      <p className="downloads">
        Data (split-adjusted or as-traded closes with the total-return index):{' '}
        <a
          href={`/api/v1/prices/${company.permaticker}?${new URLSearchParams({ ...(view.from ? { from: view.from } : {}), to: view.end ?? '', adjusted: view.basis === 'raw' ? 'false' : 'true' }).toString()}`}
        >
          JSON
        </a>
        {' · '}
        <a
          href={`/api/v1/company-prices/${company.permaticker}${asOfQuery(asOf, { range: view.range, adjusted: view.basis === 'raw' ? '0' : '1', format: 'csv' })}`}
          download
        >
          CSV
        </a>
      </p>
    </section>
  );
}
