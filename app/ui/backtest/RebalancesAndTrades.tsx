import { Link } from '@remix-run/react';
import type { Trade } from '~/services/backtest/engine/types';
import { resultHref, type OpenRebalance, type Paged, type RebalanceRow, type ResultQuery } from '~/services/backtest/result-view';
import { getMetric } from '~/services/metrics/catalogue';
import { formatByFormat, formatMetricValue } from '~/services/metrics/format';
import { money, percent } from '~/ui/company/format';
import { Pagination } from '~/ui/tables/Pagination';

// The rebalance list (each one opens to its holdings with their weights, ranks and the screen's
// values, through ?rebalance=N so it works without JavaScript) and the paged trade log.

const integer = (v: number) => formatByFormat('integer', v);

export function Rebalances({
  rebalances,
  open,
  base,
  query,
}: {
  rebalances: Paged<RebalanceRow>;
  open: OpenRebalance | null;
  base: string;
  query: ResultQuery;
}) {
  return (
    <section aria-labelledby="rebalances-title">
      <h2 id="rebalances-title">Rebalances ({integer(rebalances.total)})</h2>
      {open ? <Holdings open={open} base={base} query={query} /> : null}
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Rebalances table">
        <table className="data-table" data-testid="backtest-rebalances">
          <caption className="visually-hidden">
            Rebalances {rebalances.first} to {rebalances.first + rebalances.rows.length - 1} of {rebalances.total}
          </caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                #
              </th>
              <th scope="col">Signal date</th>
              <th scope="col">Trade date</th>
              <th scope="col" className="num">
                Universe
              </th>
              <th scope="col" className="num">
                Passed
              </th>
              <th scope="col" className="num">
                Held
              </th>
              <th scope="col" className="num">
                Value before
              </th>
              <th scope="col" className="num">
                Traded
              </th>
              <th scope="col" className="num">
                Cost
              </th>
              <th scope="col">Holdings</th>
            </tr>
          </thead>
          <tbody>
            {rebalances.rows.map((r) => (
              <tr key={r.n} aria-current={open?.n === r.n ? 'true' : undefined}>
                <td className="num">{r.n}</td>
                <th scope="row">{r.signalDate}</th>
                <td>{r.tradeDate}</td>
                <td className="num">{integer(r.universeCount)}</td>
                <td className="num">{integer(r.passCount)}</td>
                <td className="num">{integer(r.holdingCount)}</td>
                <td className="num">{money(r.valueBefore)}</td>
                <td className="num">{money(r.tradedValue)}</td>
                <td className="num">{money(r.cost)}</td>
                <td>
                  <Link to={resultHref(base, query, { rebalance: r.n }, 'holdings')} preventScrollReset>
                    Open
                    <span className="visually-hidden">
                      {' '}
                      the holdings of rebalance {r.n} ({r.signalDate})
                    </span>
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination
        label="Rebalance pages"
        page={rebalances.page}
        pageCount={rebalances.pageCount}
        href={(p) => resultHref(base, query, { rebalancesPage: p }, 'rebalances-title')}
      />
    </section>
  );
}

function Holdings({ open, base, query }: { open: OpenRebalance; base: string; query: ResultQuery }) {
  const label = (id: string) => getMetric(id)?.label ?? id;
  return (
    <section id="holdings" className="card backtest-holdings" aria-labelledby="holdings-title">
      <h3 id="holdings-title">
        Holdings of rebalance {open.n}: signal {open.signalDate}, traded {open.tradeDate}
      </h3>
      <p>
        {integer(open.passCount)} of {integer(open.universeCount)} companies passed the screen; {integer(open.holdings.length)} were held.
        Traded {money(open.tradedValue)} for {money(open.cost)} in costs.{' '}
        <Link to={resultHref(base, query, { rebalance: null }, 'rebalances-title')} preventScrollReset>
          Close the holdings
        </Link>
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={`Holdings of rebalance ${open.n} table`}>
        <table className="data-table" data-testid="backtest-holdings">
          <thead>
            <tr>
              <th scope="col" className="num">
                Rank
              </th>
              <th scope="col">Ticker</th>
              <th scope="col" className="num">
                Weight
              </th>
              {open.metrics.map((m) => (
                <th scope="col" className="num" key={m}>
                  {label(m)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {open.holdings.map((h) => (
              <tr key={h.permaticker}>
                <td className="num">{h.rank ?? 'n/a'}</td>
                <th scope="row">
                  <Link to={`/company/${h.permaticker}/overview?as_of=${open.signalDate}`}>{h.ticker}</Link>
                </th>
                <td className="num">{percent(h.weight)}</td>
                {open.metrics.map((m) => {
                  const metric = getMetric(m);
                  const v = h.values[m] ?? null;
                  return (
                    <td className="num" key={m}>
                      {metric ? formatMetricValue(metric, v) : formatByFormat('number', v)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function TradeLog({ trades, base, query }: { trades: Paged<Trade>; base: string; query: ResultQuery }) {
  return (
    <section aria-labelledby="trades-title">
      <h2 id="trades-title">Trade log ({integer(trades.total)} trades)</h2>
      {trades.total === 0 ? (
        <p>No trades.</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Trade log table">
          <table className="data-table" data-testid="backtest-trades">
            <caption className="visually-hidden">
              Trades {trades.first} to {trades.first + trades.rows.length - 1} of {trades.total}
            </caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Ticker</th>
                <th scope="col">Side</th>
                <th scope="col">Reason</th>
                <th scope="col" className="num">
                  Value
                </th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col" className="num">
                  Shares
                </th>
                <th scope="col" className="num">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {trades.rows.map((t, i) => (
                <tr key={`${trades.first + i}`}>
                  <td>{t.date}</td>
                  <th scope="row">{t.ticker}</th>
                  <td>{t.side === 'buy' ? 'Buy' : 'Sell'}</td>
                  <td>{t.reason === 'delisted' ? 'Delisted: cash at the last price' : 'Rebalance'}</td>
                  <td className="num">{money(t.value)}</td>
                  <td className="num">{money(t.price)}</td>
                  <td className="num">{formatByFormat('number', t.shares)}</td>
                  <td className="num">{money(t.cost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        label="Trade log pages"
        page={trades.page}
        pageCount={trades.pageCount}
        href={(p) => resultHref(base, query, { tradesPage: p }, 'trades-title')}
      />
    </section>
  );
}
