import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { NavLink, Outlet, useLoaderData, useLocation } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { asOfQuery } from '~/services/http/as-of';
import { companyPageContext } from '~/services/company/company-route.server';
import { AsOfForm } from '~/ui/company/AsOfForm';

// /company/{id}: the company's header, the as-of form and the five tabs (links, so no JS needed).
// Each child loader guards and loads on its own: loaders run in parallel.

const TABS = [
  { to: 'overview', label: 'Overview' },
  { to: 'chart', label: 'Chart' },
  { to: 'financial', label: 'Financials' },
  { to: 'dividend', label: 'Dividends' },
  { to: 'valuation', label: 'Valuation' },
] as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const { company, asOf, asOfError } = await companyPageContext(request, params.id);
  return { company, asOf, asOfError };
}

export default function CompanyLayout() {
  const { company, asOf, asOfError } = useLoaderData<typeof loader>();
  const location = useLocation();
  const keep = Object.fromEntries([...new URLSearchParams(location.search)].filter(([k]) => k !== 'as_of'));
  return (
    <div className="company">
      <header className="company__header">
        <h1>
          {company.name} <span className="company__ticker">({company.ticker})</span>
          {company.is_demo ? <span className="badge badge--demo">demo</span> : null}
          {company.is_delisted ? <span className="badge">delisted</span> : null}
        </h1>
        <p className="muted company__meta">
          {[company.exchange, company.sector, company.industry].filter(Boolean).join(' · ')} · permaticker {company.permaticker}
        </p>
        {company.is_demo ? <p className="demo-note">Demo data: this company, its prices and filings are fictional.</p> : null}
      </header>
      <AsOfForm asOf={asOf} error={asOfError} keep={keep} />
      <nav aria-label="Company sections" className="tabs">
        <ul>
          {TABS.map((t) => (
            <li key={t.to}>
              <NavLink to={`/company/${company.permaticker}/${t.to}${asOfQuery(asOf)}`} prefetch="none">
                {t.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.company.ticker} · ${data.company.name} · Quarry` : 'Company · Quarry' },
];
