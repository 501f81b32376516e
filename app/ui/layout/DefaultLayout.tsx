import { Form, Link, NavLink, useNavigation, useRouteLoaderData } from '@remix-run/react';
import { useEffect, useState, type ReactNode } from 'react';
import type { RootData } from '~/root';
import { DeniedNotice } from './DeniedNotice';

// The default layout: header with navigation, company search and the account menu.

const NAV: Array<{ to: string; label: string; end?: boolean }> = [
  { to: '/', label: 'Home', end: true },
  { to: '/company', label: 'Companies' },
  { to: '/data-browser', label: 'Data browser' },
  { to: '/screener', label: 'Screener', end: true },
  { to: '/screener/manage', label: 'Saved screeners' },
  { to: '/watchlist', label: 'Watchlist' },
];

/** True once a client-side navigation or form submission has taken longer than `delayMs`. */
function useSlowNavigation(delayMs: number): boolean {
  const pending = useNavigation().state !== 'idle';
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!pending) {
      setSlow(false);
      return;
    }
    const timer = setTimeout(() => setSlow(true), delayMs);
    return () => clearTimeout(timer);
  }, [pending, delayMs]);
  return slow;
}

function NavItems({ superuser }: { superuser: boolean }) {
  return (
    <ul>
      {NAV.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.end}>
            {item.label}
          </NavLink>
        </li>
      ))}
      {superuser ? (
        <li>
          <NavLink to="/admin">Admin</NavLink>
        </li>
      ) : null}
    </ul>
  );
}

export function DefaultLayout({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData('root') as RootData | undefined;
  const header = root?.header;
  const signedIn = header && !header.guest;
  const busy = useSlowNavigation(300);
  return (
    <>
      <div className={busy ? 'busy-bar busy-bar--on' : 'busy-bar'} aria-hidden="true" />
      <p className="visually-hidden" role="status" data-testid="busy-status">
        {busy ? 'Loading…' : ''}
      </p>
      <header className="app-header">
        <div className="app-header__inner">
          <Link to="/" className="brand">
            Quarry
          </Link>
          <nav className="main-nav" aria-label="Main">
            <NavItems superuser={header?.isSuperuser ?? false} />
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
                <Form method="post" action="/logout" className="inline-form user-menu__sign-out">
                  <button type="submit" className="button">
                    Sign out
                  </button>
                </Form>
              </>
            ) : (
              <span className="user-menu__guest">
                <Link to="/login">Sign in</Link>
                <Link to="/register" className="button button--primary">
                  Register
                </Link>
              </span>
            )}
          </div>
          {/* Narrow screens: the navigation folds into a menu that opens without JavaScript. */}
          <details className="nav-menu">
            <summary className="button">Menu</summary>
            <div className="nav-menu__panel">
              <nav aria-label="Main">
                <NavItems superuser={header?.isSuperuser ?? false} />
              </nav>
              {signedIn ? (
                <Form method="post" action="/logout">
                  <button type="submit" className="button">
                    Sign out
                  </button>
                </Form>
              ) : (
                <p className="nav-menu__account">
                  <Link to="/login">Sign in</Link> · <Link to="/register">Register</Link>
                </p>
              )}
            </div>
          </details>
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1} aria-busy={busy || undefined}>
        {root?.denied ? <DeniedNotice denied={root.denied} /> : null}
        {children}
      </main>
      <footer className="app-footer">Quarry — point-in-time market data. Figures link to the filings they come from.</footer>
    </>
  );
}
