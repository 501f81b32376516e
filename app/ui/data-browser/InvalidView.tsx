import { Link } from '@remix-run/react';

/** The data browser's answer to parameters it cannot show (a 400 page). */
export function InvalidView({ errors }: { errors: Record<string, string[]> }) {
  return (
    <>
      <h1>Data browser</h1>
      <section className="card callout callout--error" role="alert">
        <h2>Invalid parameters</h2>
        <ul>
          {Object.entries(errors).map(([k, msgs]) => (
            <li key={k}>
              {k}: {msgs.join(' ')}
            </li>
          ))}
        </ul>
        <p>
          <Link to="?">Reset the view</Link>
        </p>
      </section>
    </>
  );
}
