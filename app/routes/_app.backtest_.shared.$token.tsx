import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { guard } from '~/services/auth/guard.server';
import { sharedBacktestPage } from '~/services/backtest/page.server';
import { BacktestProgress } from '~/ui/backtest/BacktestProgress';
import { BacktestResult } from '~/ui/backtest/BacktestResult';
import { thinCurve } from '~/ui/backtest/curve';
import { RunDetails } from '~/ui/backtest/RunDetails';

// /backtest/shared/{token}: the read-only permalink of a backtest. The same result sections as
// the owner's page, without cancel, share or delete. Who may open it follows the route rules
// like every page (the shared screener link is the precedent): any account with access.

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: `${d?.backtest.name ?? 'Shared backtest'} · Shared backtest · Quarry` },
];
export const handle = { pageName: 'backtest-shared' };

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const url = new URL(request.url);
  const token = params.token ?? '';
  const page = await sharedBacktestPage(token, url.searchParams);
  const body = { ...page, result: page.result ? { ...page.result, curve: thinCurve(page.result.curve) } : null, token };
  return data(body, { status: page.problems.length > 0 ? 400 : 200 });
}

export default function SharedBacktestPage() {
  const d = useLoaderData<typeof loader>();
  const b = d.backtest;
  const base = `/backtest/shared/${d.token}`;
  return (
    <div className="backtest-page">
      <h1>Shared backtest “{b.name}”</h1>
      <p>
        A read-only copy of someone’s backtest. <Link to="/backtest/methodology">Methodology</Link> ·{' '}
        <Link to={`/screener?${b.screen.query}`}>Open the screen in the screener</Link>
      </p>
      {d.problems.length > 0 ? (
        <ul className="form-errors" role="alert">
          {d.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {d.result ? (
        <BacktestResult result={d.result} base={base} csvQuery={`token=${encodeURIComponent(d.token)}`} />
      ) : (
        <BacktestProgress
          id={b.id}
          status={b.status}
          progress={b.progress}
          message={b.message}
          error={b.error}
          runAgainHref={null}
          canCancel={false}
        />
      )}
      <RunDetails
        params={b.params}
        benchmark={b.benchmark}
        screen={b.screen}
        snapshotId={b.snapshotId}
        engineVersion={b.engineVersion}
        createdAt={b.createdAt}
        finishedAt={b.finishedAt}
      />
    </div>
  );
}
