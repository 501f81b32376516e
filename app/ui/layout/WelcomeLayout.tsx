import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';

// The welcome layout of the sign-in, sign-up and recovery pages.
export function WelcomeLayout({ children }: { children: ReactNode }) {
  return (
    <div className="welcome">
      <main id="main" className="welcome__card" tabIndex={-1}>
        <Link to="/" className="brand welcome__brand">
          Quarry
        </Link>
        {children}
      </main>
    </div>
  );
}
