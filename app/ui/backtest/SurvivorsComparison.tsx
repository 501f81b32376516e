import { Link } from '@remix-run/react';
import type { SurvivorsView } from '~/services/backtest/result-view';
import { formatByFormat } from '~/services/metrics/format';
import { percent, ratio } from '~/ui/company/format';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';
import { METHODOLOGY_PATH } from './StatisticsTables';

// The same run restricted to companies still listed at the end, side by side with the real one:
// how much a database without delisted companies would have flattered the result.

const pp = (v: number) => `${formatByFormat('number', Math.abs(v))} pp`;
const signedPp = (v: number) => (pp(v) === '0.00 pp' ? pp(v) : `${v < 0 ? '−' : '+'}${pp(v)}`);
const integer = (v: number) => formatByFormat('integer', v);

export function SurvivorsComparison({ survivors }: { survivors: SurvivorsView | null }) {
  return (
    <section aria-labelledby="survivors-title" className="card">
      <h2 id="survivors-title">Survivors only</h2>
      {survivors === null ? (
        <p>
          The survivors-only comparison could not be made for this backtest: its benchmark did not survive to the end, or no company did (
          <Link to={`${METHODOLOGY_PATH}#survivors-only`}>how it works</Link>).
        </p>
      ) : (
        <Comparison s={survivors} />
      )}
    </section>
  );
}

function Comparison({ s }: { s: SurvivorsView }) {
  const rows: { label: string; full: string; survivors: string }[] = [
    { label: 'Total return', full: percent(s.full.totalReturn), survivors: percent(s.survivors.totalReturn) },
    { label: 'CAGR', full: percent(s.full.cagr), survivors: percent(s.survivors.cagr) },
    { label: 'Annual volatility', full: percent(s.full.annualVolatility), survivors: percent(s.survivors.annualVolatility) },
    { label: 'Maximum drawdown', full: percent(s.full.maxDrawdown), survivors: percent(s.survivors.maxDrawdown) },
    { label: 'Sharpe ratio', full: ratio(s.full.sharpe), survivors: ratio(s.survivors.sharpe) },
  ];
  return (
    <>
      <p data-testid="survivorship-bias">
        {s.totalReturnGapPp >= 0 ? (
          <>
            <strong>Survivorship bias flatters the total return by {pp(s.totalReturnGapPp)}</strong> (CAGR: {signedPp(s.cagrGapPp)}).
          </>
        ) : (
          <>
            <strong>Restricted to survivors, the total return is {pp(s.totalReturnGapPp)} lower</strong>: for this screen, leaving out the
            companies that were later delisted would not have flattered the result.
          </>
        )}{' '}
        The survivors-only run leaves out {integer(s.delistedExcluded)} companies that did not survive to the end and keeps{' '}
        {integer(s.securities)} (<Link to={`${METHODOLOGY_PATH}#survivors-only`}>how it works</Link>).
      </p>
      <ScrollRegion label="Survivors-only comparison table">
        <table className="data-table" data-testid="backtest-survivors">
          <caption className="visually-hidden">The backtest against the same run on survivors only</caption>
          <thead>
            <tr>
              <th scope="col">Statistic</th>
              <th scope="col" className="num">
                All companies (as they were)
              </th>
              <th scope="col" className="num">
                Survivors only
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <th scope="row">{r.label}</th>
                <td className="num">{r.full}</td>
                <td className="num">{r.survivors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </>
  );
}
