import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';

export const meta: MetaFunction = () => [{ title: 'Quarry — point-in-time market data, screens and backtests' }];
export const handle = { pageName: 'home' };

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  return null;
}

export default function HomePage() {
  return (
    <>
      <h1>Markets</h1>
      <p>Every figure in Quarry is point in time: it shows what was known on the day you pick, and links to the filing it came from.</p>
      <ul>
        <li>
          <Link to="/company">Find a company</Link> by ticker or name.
        </li>
        <li>
          <Link to="/data-browser">Browse any metric</Link> of any company through its history.
        </li>
        <li>
          <Link to="/screener">Screen stocks</Link> and keep a <Link to="/watchlist">watchlist</Link>.
        </li>
      </ul>
    </>
  );
}
