import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { BACKTEST_ENGINE_VERSION } from '~/services/backtest/engine/params';
import { parseMethodology } from '~/services/backtest/methodology-sections';

// /backtest/methodology: the definitions behind every number of a backtest, one heading each,
// from the engine's own text (engine/methodology.ts). Result pages link to the anchors.

export const meta: MetaFunction = () => [{ title: 'Backtest methodology · Quarry' }];
export const handle = { pageName: 'backtest-methodology' };

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  return { methodology: parseMethodology(), engineVersion: BACKTEST_ENGINE_VERSION };
}

export default function MethodologyPage() {
  const { methodology, engineVersion } = useLoaderData<typeof loader>();
  return (
    <article className="backtest-methodology">
      <h1>Backtest methodology</h1>
      <p>
        {methodology.title}, for engine version <code>{engineVersion}</code>. Every result stores its parameters, the market data snapshot
        it read and the engine version, so the same inputs give the same numbers. <Link to="/screener/manage">Backtest a saved screen</Link>
        .
      </p>
      <nav aria-labelledby="contents-title">
        <h2 id="contents-title">Contents</h2>
        <ul>
          {methodology.sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.term}</a>
            </li>
          ))}
        </ul>
      </nav>
      {methodology.sections.map((s) => (
        <section key={s.id} aria-labelledby={s.id}>
          <h2 id={s.id}>{s.term}</h2>
          {s.text ? <p>{s.text}</p> : null}
          {s.definitions.map((d) => (
            <section key={d.id} aria-labelledby={d.id}>
              <h3 id={d.id}>{d.term}</h3>
              <p>{d.text}</p>
            </section>
          ))}
        </section>
      ))}
    </article>
  );
}
