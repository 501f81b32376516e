import type { SubmissionResult } from '@conform-to/react';
import { Link } from '@remix-run/react';
import type { BacktestFormPage as FormPage } from '~/services/backtest/page.server';
import { BacktestForm } from './BacktestForm';
import { BacktestList } from './BacktestList';

/** /backtest?screener_id=…: the saved screen, the run form and the screen's past backtests. */
export function BacktestFormPage({ page: d, lastResult }: { page: FormPage; lastResult?: SubmissionResult<string[]> }) {
  return (
    <div className="backtest-page">
      <h1>Backtest “{d.screener.name}”</h1>
      <p>
        Runs the saved screen through history: on every rebalance date it is evaluated with only what was known then, including companies
        delisted later. <Link to="/backtest/methodology">Methodology</Link> ·{' '}
        <Link to={`/screener?${d.screener.query}&saved=${d.screener.id}`}>Open the screen</Link>
      </p>
      <section className="card" aria-labelledby="screen-title">
        <h2 id="screen-title">Screen</h2>
        {d.screener.rules.length === 0 ? <p>No rules: every company passes.</p> : null}
        <ol>
          {d.screener.rules.map((r, i) => (
            <li key={i}>
              <code>{r}</code>
            </li>
          ))}
        </ol>
        <p>Ranking: {d.screener.ranking.length === 0 ? 'none (by ticker)' : d.screener.ranking.join('; ')}.</p>
      </section>
      <section aria-labelledby="run-title">
        <h2 id="run-title">Parameters</h2>
        <BacktestForm defaults={d.defaults} lastResult={lastResult} />
      </section>
      <section aria-labelledby="past-title">
        <h2 id="past-title">Past backtests of this screen</h2>
        <BacktestList backtests={d.backtests} deleteHref={(id) => `?screener_id=${d.screener.id}&modal=delete&id=${id}`} />
      </section>
    </div>
  );
}
