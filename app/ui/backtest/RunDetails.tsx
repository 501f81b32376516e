import { Link } from '@remix-run/react';
import type { BacktestParams } from '~/services/backtest/engine/params';
import { REBALANCE_LABELS, WEIGHTING_LABELS } from '~/services/backtest/form';
import type { ScreenText } from '~/services/backtest/page.server';
import { formatByFormat } from '~/services/metrics/format';
import { money, percent } from '~/ui/company/format';
import { Timestamp } from '~/ui/Timestamp';

// Everything a result was computed from: the parameters, the screen as it was when the backtest
// was asked for, the market data snapshot and the engine version.

export type RunDetailsProps = {
  params: BacktestParams;
  benchmark: string;
  screen: ScreenText;
  snapshotId: string | null;
  engineVersion: string;
  createdAt: string;
  finishedAt: string | null;
};

const bps = (v: number) => `${formatByFormat('number', v)} bps`;

export function RunDetails({ params, benchmark, screen, snapshotId, engineVersion, createdAt, finishedAt }: RunDetailsProps) {
  return (
    <section aria-labelledby="details-title" className="card">
      <h2 id="details-title">Parameters, screen and data</h2>
      <p>Reproducible: the same screen, parameters, data snapshot and engine version give the same numbers.</p>
      <div className="overview-grid">
        <dl className="key-values" data-testid="backtest-parameters">
          <dt>Period</dt>
          <dd>
            {params.start} to {params.end}
          </dd>
          <dt>Rebalance</dt>
          <dd>{REBALANCE_LABELS[params.rebalance]}</dd>
          <dt>Holdings</dt>
          <dd>{params.topN === 'all' ? 'Every passer' : `Top ${params.topN}`}</dd>
          <dt>Weighting</dt>
          <dd>{WEIGHTING_LABELS[params.weighting]}</dd>
          <dt>Maximum weight</dt>
          <dd>{params.maxWeight === null ? 'No cap' : percent(params.maxWeight)}</dd>
          <dt>Commission</dt>
          <dd>{bps(params.commissionBps)}</dd>
          <dt>Slippage</dt>
          <dd>{bps(params.slippageBps)}</dd>
          <dt>Fixed cost per trade</dt>
          <dd>{money(params.fixedCostPerTrade)}</dd>
          <dt>Risk-free rate</dt>
          <dd>{percent(params.riskFreeRate)} a year</dd>
          <dt>Benchmark</dt>
          <dd>{benchmark}</dd>
          <dt>Initial capital</dt>
          <dd>{money(params.initialCapital)}</dd>
        </dl>
        <dl className="key-values">
          <dt>Data snapshot</dt>
          <dd>
            <code>{snapshotId ?? 'not read yet'}</code>
          </dd>
          <dt>Engine version</dt>
          <dd>
            <code>{engineVersion}</code>
          </dd>
          <dt>Asked for</dt>
          <dd>
            <Timestamp iso={createdAt} />
          </dd>
          <dt>Finished</dt>
          <dd>
            <Timestamp iso={finishedAt} empty="n/a" />
          </dd>
        </dl>
      </div>
      <h3>Screen</h3>
      {screen.universe.length > 0 ? (
        <p>Universe: {screen.universe.join('; ')}.</p>
      ) : (
        <p>Universe: every company listed on each signal date.</p>
      )}
      {screen.rules.length === 0 ? (
        <p>No rules: every company of the universe passes.</p>
      ) : (
        <ol>
          {screen.rules.map((r, i) => (
            <li key={i}>
              <code>{r}</code>
            </li>
          ))}
        </ol>
      )}
      <p>Ranking: {screen.ranking.length === 0 ? 'none (by ticker)' : screen.ranking.join('; ')}.</p>
      <p>
        <Link to={`/screener?${screen.query}`}>Open this screen in the screener</Link>
      </p>
    </section>
  );
}
