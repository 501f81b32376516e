import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Link, Outlet, useLoaderData, useLocation } from '@remix-run/react';
import { z } from 'zod';
import { guard, requireUser } from '~/services/auth/guard.server';
import { safeRedirectPath } from '~/services/auth/redirects';
import { errorModalRedirect } from '~/services/auth/session.server';
import { asOfQuery } from '~/services/http/as-of';
import { companyPageContext } from '~/services/company/company-route.server';
import { forbidden } from '~/services/http/errors';
import { intent, intentAction } from '~/services/http/intent-action.server';
import { pageError } from '~/services/http/page-errors';
import { readPageForm } from '~/services/http/request-body.server';
import { companyWatchlists, setCompanyOnWatchlist } from '~/services/watchlist/membership.server';
import { AsOfForm } from '~/ui/company/AsOfForm';
import { CompanyWatchlists } from '~/ui/company/CompanyWatchlists';

// /company/{id}: the company's header, the watchlist box, the as-of form and the five tabs
// (links, so no JS needed). Each child loader guards and loads on its own: loaders run in parallel.

const TABS = [
  { to: 'overview', label: 'Overview' },
  { to: 'chart', label: 'Chart' },
  { to: 'financial', label: 'Financials' },
  { to: 'dividend', label: 'Dividends' },
  { to: 'valuation', label: 'Valuation' },
] as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await guard(request);
  const { company, asOf, asOfError } = await companyPageContext(request, params.id);
  const watchlists = user?.has_access ? await companyWatchlists(user.id, company.permaticker) : null;
  return { company, asOf, asOfError, watchlists };
}

// The watchlist box's forms post here (the layout's own address) from whichever tab is open.
export async function action({ request, params }: ActionFunctionArgs) {
  const { user, session } = await requireUser(request);
  if (!user.has_access) pageError(forbidden('Watchlists need an account with access.'));
  const { company } = await companyPageContext(request, params.id);
  const formData = await readPageForm(request);
  const back = safeRedirectPath(formData.get('redirect_to'), `/company/${company.permaticker}/overview`);
  const change = (on: boolean) =>
    intent(
      z.object({ list: z.string().min(1).max(64) }),
      async (v) => {
        await setCompanyOnWatchlist(user.id, v.list, company.permaticker, on);
        return redirect(back);
      },
      { refusals: 'modal' },
    );
  return intentAction(formData, {
    cancelTo: back,
    refusalModal: errorModalRedirect(session, back, 'Watchlist'),
    intents: { 'watchlist-add': change(true), 'watchlist-remove': change(false) },
  });
}

export default function CompanyLayout() {
  const { company, asOf, asOfError, watchlists } = useLoaderData<typeof loader>();
  const location = useLocation();
  const keep = Object.fromEntries([...new URLSearchParams(location.search)].filter(([k]) => k !== 'as_of'));
  // The tab from the address, which may name the company by ticker or by permaticker.
  const current = location.pathname.split('/')[3] ?? '';
  return (
    <div className="company">
      <div className="company__top">
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
          <AsOfForm action={location.pathname} asOf={asOf} error={asOfError} keep={keep} />
        </header>
        <CompanyWatchlists
          ticker={company.ticker}
          permaticker={company.permaticker}
          lists={watchlists}
          back={location.pathname + location.search}
        />
      </div>
      <nav aria-label="Company sections" className="tabs">
        <ul>
          {TABS.map((t) => (
            <li key={t.to}>
              <Link
                to={`/company/${company.permaticker}/${t.to}${asOfQuery(asOf)}`}
                prefetch="none"
                aria-current={current === t.to ? 'page' : undefined}
              >
                {t.label}
              </Link>
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
