import { Link } from '@remix-run/react';
import type { ResultView } from '~/services/backtest/result-view';
import { RESULT_TABLES, type ResultTableName } from '~/services/backtest/result-csv';
import { formatByFormat } from '~/services/metrics/format';
import { money, percent, ratio } from '~/ui/company/format';
import { ResultCharts } from './ResultCharts';
import { Rebalances, TradeLog } from './RebalancesAndTrades';
import { METHODOLOGY_PATH, MonthlyReturns, StatisticsTable } from './StatisticsTables';
import { SurvivorsComparison } from './SurvivorsComparison';

// A finished backtest: the same sections for the owner and for a shared link. `base` is the
// page's address without view state (the links add scale, rebalance and pages to it);
// `csvQuery` names the backtest for the CSV downloads (its id, or the share token).

const CSV_LABELS: Record<ResultTableName, string> = {
  curves: 'Curves (equity, benchmark, drawdown)',
  holdings: 'Holdings per rebalance',
  trades: 'Trades',
  monthly: 'Monthly returns',
};

export function BacktestResult({ result, base, csvQuery }: { result: ResultView; base: string; csvQuery: string }) {
  const s = result.statistics;
  return (
    <>
      <section aria-labelledby="headline-title">
        <h2 id="headline-title" className="visually-hidden">
          Headline numbers
        </h2>
        <div className="overview-grid backtest-headline" data-testid="backtest-headline">
          <Headline label="Total return" value={percent(s.totalReturn)} note={`Benchmark ${percent(s.benchmarkTotalReturn)}`} />
          <Headline label="CAGR" value={percent(s.cagr)} note={`Benchmark ${percent(s.benchmarkCagr)}`} />
          <Headline label="Maximum drawdown" value={percent(s.maxDrawdown)} note={s.troughDate ? `Trough ${s.troughDate}` : ''} />
          <Headline label="Sharpe ratio" value={ratio(s.sharpe)} note={`Volatility ${percent(s.annualVolatility)} a year`} />
          <Headline
            label="Delisted holdings"
            value={formatByFormat('integer', result.delistedHoldings)}
            note="turned into cash at their last price"
          />
        </div>
        <p className="muted">
          {s.startDate} to {s.endDate}. Costs paid: {money(s.totalCosts)}. <Link to={METHODOLOGY_PATH}>How every number is computed</Link>.
        </p>
      </section>
      <ResultCharts curve={result.curve} base={base} query={result.query} />
      <SurvivorsComparison survivors={result.survivors} />
      <StatisticsTable statistics={s} />
      <MonthlyReturns rows={result.monthly} />
      <Rebalances rebalances={result.rebalances} open={result.openRebalance} base={base} query={result.query} />
      <TradeLog trades={result.trades} base={base} query={result.query} />
      <section aria-labelledby="downloads-title">
        <h2 id="downloads-title">Download CSV</h2>
        <ul className="downloads">
          {RESULT_TABLES.map((t) => (
            <li key={t}>
              <a href={`/backtest/csv?${csvQuery}&table=${t}`} download>
                {CSV_LABELS[t]}
              </a>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function Headline({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className="card">
      <h3>{label}</h3>
      <p className="big-number">{value}</p>
      {note ? <p className="muted">{note}</p> : null}
    </div>
  );
}
