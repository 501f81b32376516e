import { Link } from '@remix-run/react';
import type { BacktestStatistics, MonthlyReturnRow } from '~/services/backtest/engine/types';
import { STATISTIC_ROWS, type StatisticFormat } from '~/services/backtest/statistics-rows';
import { formatByFormat } from '~/services/metrics/format';
import { percent } from '~/ui/company/format';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

// The statistics table (each label links to its definition) and the monthly return table.

export const METHODOLOGY_PATH = '/backtest/methodology';

function show(format: StatisticFormat, value: number | string | null): string {
  if (format === 'date') return typeof value === 'string' ? value : 'none';
  return formatByFormat(format, typeof value === 'number' ? value : null);
}

export function StatisticsTable({ statistics }: { statistics: Omit<BacktestStatistics, 'monthlyReturns'> }) {
  return (
    <section aria-labelledby="statistics-title">
      <h2 id="statistics-title">Statistics</h2>
      <ScrollRegion label="Statistics table">
        <table className="data-table" data-testid="backtest-statistics">
          <caption className="visually-hidden">Statistics of the backtest; each name links to its definition</caption>
          <thead>
            <tr>
              <th scope="col">Statistic</th>
              <th scope="col" className="num">
                Value
              </th>
            </tr>
          </thead>
          <tbody>
            {STATISTIC_ROWS.map((row) => (
              <tr key={row.key}>
                <th scope="row">
                  <Link to={`${METHODOLOGY_PATH}#${row.anchor}`}>{row.label}</Link>
                </th>
                <td className="num">{show(row.format, statistics[row.key])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function MonthlyReturns({ rows }: { rows: MonthlyReturnRow[] }) {
  return (
    <section aria-labelledby="monthly-title">
      <h2 id="monthly-title">Monthly returns</h2>
      <p className="muted">
        Each month’s and year’s return (<Link to={`${METHODOLOGY_PATH}#monthly-and-yearly-returns`}>how they are computed</Link>).
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Monthly returns table">
        <table className="data-table backtest-monthly" data-testid="backtest-monthly">
          <caption className="visually-hidden">Return of each month and year</caption>
          <thead>
            <tr>
              <th scope="col">Year</th>
              {MONTHS.map((m) => (
                <th scope="col" className="num" key={m}>
                  {m}
                </th>
              ))}
              <th scope="col" className="num">
                Year
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.year}>
                <th scope="row">{r.year}</th>
                {r.months.map((v, i) => (
                  <td className="num" key={MONTHS[i]}>
                    {v === null ? '' : percent(v)}
                  </td>
                ))}
                <td className="num">
                  <strong>{percent(r.year_return)}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
