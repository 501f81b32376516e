import { Link } from '@remix-run/react';
import type { BacktestListItem, BacktestStatus } from '~/services/backtest/backtests.server';
import { REBALANCE_LABELS } from '~/services/backtest/form';
import { percent } from '~/ui/company/format';
import { Timestamp } from '~/ui/Timestamp';
import { formatTimestamp } from '~/ui/timestamp-format';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

// Past backtests of a screener, newest first, each opening its result; deleting one asks first
// (the confirm modal of `deleteHref`).

export const STATUS_LABELS: Record<BacktestStatus, string> = {
  queued: 'Waiting',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const when = (iso: string) => formatTimestamp(iso);

export function BacktestList({ backtests, deleteHref }: { backtests: BacktestListItem[]; deleteHref?: (id: string) => string }) {
  if (backtests.length === 0) return <p>No backtests yet.</p>;
  return (
    <ScrollRegion label="Past backtests table">
      <table className="data-table" data-testid="backtest-list">
        <caption className="visually-hidden">Past backtests, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Asked for</th>
            <th scope="col">Name</th>
            <th scope="col">Period</th>
            <th scope="col">Rebalance</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Total return
            </th>
            <th scope="col" className="num">
              Survivors only
            </th>
            {deleteHref ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {backtests.map((b) => {
            const name = `${b.name}, ${when(b.createdAt)}`;
            return (
              <tr key={b.id}>
                <th scope="row">
                  <Link to={`/backtest?backtest_id=${b.id}`}>
                    <Timestamp iso={b.createdAt} />
                    <span className="visually-hidden"> open {b.name}</span>
                  </Link>
                </th>
                <td>{b.name}</td>
                <td>
                  {b.params.start} to {b.params.end}
                </td>
                <td>{REBALANCE_LABELS[b.params.rebalance]}</td>
                <td>{b.status === 'running' ? `${STATUS_LABELS.running} (${percent(b.progress)})` : STATUS_LABELS[b.status]}</td>
                <td className="num">{b.summary ? percent(b.summary.totalReturn) : ''}</td>
                <td className="num">{b.summary ? percent(b.summary.survivorsTotalReturn) : ''}</td>
                {deleteHref ? (
                  <td>
                    <Link to={deleteHref(b.id)} className="danger-link">
                      Delete<span className="visually-hidden"> the backtest {name}</span>
                    </Link>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
