import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useState } from 'react';
import { z } from 'zod';
import { guard } from '~/services/auth/guard.server';
import { searchCompaniesPage } from '~/services/company/companies.server';
import { pageError } from '~/services/http/page-errors';
import { SuggestionList, useCompanySuggestions } from '~/ui/company/CompanySuggestions';
import { Pagination } from '~/ui/tables/Pagination';
import { useHydrated } from '~/ui/use-hydrated';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

const Query = z.object({ query: z.string().max(100).catch(''), page: z.coerce.number().int().min(1).max(100_000).catch(1) });

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  const { query, page } = Query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const q = query.trim();
  const found = q ? await searchCompaniesPage(q, page).catch(pageError) : null;
  return { query: q, found, results: found?.hits ?? null };
}

export default function CompanySearch() {
  const { query, results, found } = useLoaderData<typeof loader>();
  const [typed, setTyped] = useState(query);
  const hydrated = useHydrated();
  const suggestions = useCompanySuggestions(hydrated && typed !== query ? typed : '');
  return (
    <>
      <h1>Companies</h1>
      <Form method="get" role="search" className="search-form" aria-label="Company search">
        <label htmlFor="company-query">Ticker or company name</label>
        <input
          id="company-query"
          name="query"
          type="search"
          defaultValue={query}
          autoComplete="off"
          onChange={(e) => setTyped(e.currentTarget.value)}
          aria-describedby="company-query-hint"
        />
        <button type="submit" className="button button--primary">
          Search
        </button>
        <p id="company-query-hint" className="field__hint">
          A current or former ticker, or part of the name.
        </p>
      </Form>
      {hydrated ? <SuggestionList hits={suggestions} /> : null}
      {results === null ? (
        <p>Search for a company to see its profile, prices, financials, dividends and valuation.</p>
      ) : (
        <section aria-labelledby="results-title">
          <h2 id="results-title">
            {found?.total ?? results.length} result{(found?.total ?? results.length) === 1 ? '' : 's'} for “{query}”
          </h2>
          {results.length === 0 ? (
            <p>No company matches. Try another ticker or a shorter part of the name.</p>
          ) : (
            <ScrollRegion label="Search results table">
              <table className="data-table" aria-labelledby="results-title">
                <thead>
                  <tr>
                    <th scope="col">Ticker</th>
                    <th scope="col">Name</th>
                    <th scope="col">Exchange</th>
                    <th scope="col">Sector</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {results.map((r) => (
                    <tr key={r.permaticker}>
                      <td>
                        <Link to={`/company/${r.permaticker}/overview`}>{r.ticker}</Link>
                      </td>
                      <td>{r.name}</td>
                      <td>{r.exchange ?? 'n/a'}</td>
                      <td>{r.sector ?? 'n/a'}</td>
                      <td>
                        {r.is_demo ? <span className="badge badge--demo">demo</span> : null}
                        {r.is_delisted ? <span className="badge">delisted</span> : null}
                        {r.match === 'former_ticker' ? <span className="muted"> former ticker</span> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
          {found ? (
            <Pagination
              label="Search result pages"
              page={found.page}
              pageCount={found.pageCount}
              href={(page) => `?${new URLSearchParams({ query, page: String(page) })}`}
            />
          ) : null}
        </section>
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: 'Companies · Quarry' }];
