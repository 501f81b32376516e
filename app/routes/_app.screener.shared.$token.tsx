import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { orPageError } from '~/services/http/page-errors';
import { ruleToText } from '~/services/screener/model';
import { getSharedScreener } from '~/services/screener/saved.server';
import { screenToQuery } from '~/services/screener/url';

// /screener/shared/{token}: the read-only view of a shared screener. Opening it in the screener
// gives the reader their own copy in the URL; the owner's saved screen never changes.

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.name ?? 'Shared screen'} · Quarry` }];
export const handle = { pageName: 'screener-shared' };

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const shared = await orPageError(getSharedScreener(params.token ?? ''));
  return { name: shared.name, rules: shared.screen.rules.map(ruleToText), query: screenToQuery(shared.screen) };
}

export default function SharedScreenPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Shared screen: {data.name}</h1>
      <p>A read-only copy of someone’s saved screen.</p>
      <section className="card" aria-labelledby="shared-rules">
        <h2 id="shared-rules">Rules</h2>
        {data.rules.length === 0 ? <p>No rules.</p> : null}
        <ol>
          {data.rules.map((r, i) => (
            <li key={i}>
              <code>{r}</code>
            </li>
          ))}
        </ol>
        <p>
          <Link to={`/screener?${data.query}`} className="button button--primary">
            Open in the screener
          </Link>
        </p>
      </section>
    </>
  );
}
