import { Link } from '@remix-run/react';
import type { Peers } from '~/services/company/peers';
import { PEER_METRICS } from '~/services/company/peers';
import { getMetric } from '~/services/metrics/catalogue';
import { formatMetricValue } from '~/services/metrics/format';
import { Change } from '~/ui/Change';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

// The overview's peers: companies of the same industry (or sector), largest first, with the
// multiples investors compare them by. Growth is a change (sign and colour).

export function PeersTable({
  peers,
  sector,
  industry,
  query,
}: {
  peers: Peers;
  sector: string | null;
  industry: string | null;
  query: string;
}) {
  const scope = peers.basis === 'industry' ? `industry: ${industry}` : `sector: ${sector}`;
  return (
    <section aria-labelledby="peers-title" className="peers">
      <h3 id="peers-title">Peers</h3>
      {peers.peers.length === 0 ? (
        <p>No other company of this {industry ? 'industry or sector' : 'sector'} has values on this date.</p>
      ) : (
        <>
          <p className="muted" data-testid="peers-basis">
            Largest companies of the same {scope}
            {peers.basis === 'industry' && peers.peers.some((p) => p.match === 'sector') ? ', then of the same sector' : ''}, as of{' '}
            {peers.date}.
          </p>
          <ScrollRegion label="Peers table">
            <table className="data-table" aria-labelledby="peers-title">
              <thead>
                <tr>
                  <th scope="col">Ticker</th>
                  <th scope="col">Name</th>
                  {PEER_METRICS.map((id) => (
                    <th key={id} scope="col" className="num" title={getMetric(id)?.definition}>
                      {getMetric(id)?.label ?? id}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {peers.peers.map((p) => (
                  <tr key={p.permaticker} data-testid="peer-row" data-match={p.match}>
                    <th scope="row">
                      <Link to={`/company/${p.permaticker}/overview${query}`}>{p.ticker}</Link>
                    </th>
                    <td>{p.name}</td>
                    {PEER_METRICS.map((id) => {
                      const metric = getMetric(id);
                      return (
                        <td key={id} className="num">
                          {id === 'revenue_growth_yoy' ? (
                            <Change value={p.values[id]} />
                          ) : metric ? (
                            formatMetricValue(metric, p.values[id])
                          ) : null}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}
    </section>
  );
}
