import { Form, Link, NavLink, useRouteLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { RootData } from '~/root';

// The default layout: header with navigation, company search and the account menu.

const NAV: Array<{ to: string; label: string; end?: boolean }> = [
  { to: '/', label: 'Home', end: true },
  { to: '/company', label: 'Companies' },
  { to: '/data-browser', label: 'Data browser' },
  { to: '/screener', label: 'Screener', end: true },
  { to: '/screener/manage', label: 'Saved screeners' },
  { to: '/watchlist', label: 'Watchlist' },
];

export function DefaultLayout({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData('root') as RootData | undefined;
  const header = root?.header;
  const signedIn = header && !header.guest;
  return (
    <>
      <header className="app-header">
        <div className="app-header__inner">
          <Link to="/" className="brand">
            Quarry
          </Link>
          <nav className="main-nav" aria-label="Main">
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.end}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
              {header?.isSuperuser ? (
                <li>
                  <NavLink to="/admin">Admin</NavLink>
                </li>
              ) : null}
            </ul>
          </nav>
          <form method="get" action="/company" role="search" className="header-search">
            <label htmlFor="header-search" className="visually-hidden">
              Search companies by ticker or name
            </label>
            <input id="header-search" type="search" name="query" placeholder="Ticker or name" autoComplete="off" />
            <button type="submit" className="button">
              Search
            </button>
          </form>
          <div className="user-menu">
            {signedIn ? (
              <>
                {/* No aria-label: the name must contain the visible initials (WCAG 2.5.3, label in name). */}
                <Link to="/profile" className="avatar-link">
                  <span className="avatar" data-testid="user-initials" title={header.fullName ?? undefined}>
                    {header.profilePicture ? <img src={header.profilePicture} alt="" /> : header.initials}
                  </span>
                  <span className="visually-hidden"> Profile of {header.fullName ?? ''}</span>
                </Link>
                <Form method="post" action="/logout" className="inline-form">
                  <button type="submit" className="button">
                    Sign out
                  </button>
                </Form>
              </>
            ) : (
              <>
                <Link to="/login">Sign in</Link>
                <Link to="/register" className="button button--primary">
                  Register
                </Link>
              </>
            )}
          </div>
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        {children}
      </main>
      <footer className="app-footer">Quarry — point-in-time market data. Figures link to the filings they come from.</footer>
    </>
  );
}
