import { Link } from '@remix-run/react';
import type { DeniedPage } from '~/services/auth/types';

// Shown once on the page the guard sent a caller to (the data browser) instead of the page they
// asked for: what was refused, why, and the way in, which leads back to that page afterwards.

function pageName(path: string): string {
  const [pathname, search = ''] = path.split('?');
  if (pathname === '/') return 'the home page';
  if (pathname === '/company' && new URLSearchParams(search).get('query')) return 'company search';
  if (pathname.startsWith('/company')) return 'company pages';
  if (pathname.startsWith('/screener/manage')) return 'saved screeners';
  if (pathname.startsWith('/screener/columns')) return 'saved column sets';
  if (pathname.startsWith('/screener/shared')) return 'this shared screen';
  if (pathname.startsWith('/screener')) return 'the screener';
  if (pathname.startsWith('/backtest/shared')) return 'this shared backtest';
  if (pathname.startsWith('/backtest')) return 'backtests';
  if (pathname.startsWith('/watchlist')) return 'the watchlist';
  return 'that page';
}

export function DeniedNotice({ denied }: { denied: DeniedPage }) {
  const back = new URLSearchParams({ redirectTo: denied.path });
  const name = pageName(denied.path);
  return (
    <section className="card callout denied-notice" aria-labelledby="denied-title" data-testid="denied-notice">
      <h2 id="denied-title">{denied.guest ? `Sign in to open ${name}` : `Full access opens ${name}`}</h2>
      {denied.guest ? (
        <>
          <p>
            You are browsing as a guest, and guests may use the data browser only, so you were brought here instead of{' '}
            <code>{denied.path}</code>. Sign in or create a free account and you will go on to that page.
          </p>
          <p className="denied-notice__actions">
            <Link to={`/login?${back}`} className="button button--primary">
              Sign in to continue
            </Link>
            <Link to={`/register?${back}`} className="button">
              Create an account
            </Link>
          </p>
        </>
      ) : (
        <>
          <p>
            Your account does not have access to the screener, backtests and watchlists yet, so you were brought here instead of{' '}
            <code>{denied.path}</code>. Finish your profile to open them.
          </p>
          <p className="denied-notice__actions">
            <Link to={`/finish-profile-creation?${back}`} className="button button--primary">
              Finish your profile
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
