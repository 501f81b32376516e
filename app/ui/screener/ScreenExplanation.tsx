import { Link } from '@remix-run/react';
import { screenerSearch } from './links';
import type { ScreenerView } from './view';

// "Why is X in or out": every universe check and rule with the security's own values, drawn
// under the security's row (or above the results when it is not on the page).

export function ScreenExplanation({ data, search }: { data: Pick<ScreenerView, 'explanation'>; search: string }) {
  const e = data.explanation;
  if (!e) return null;
  const checks = [...e.universe, ...e.rules];
  return (
    <section className="card" aria-labelledby="explain-heading">
      <h2 id="explain-heading">
        Why {e.ticker ?? e.permaticker} is {e.passes ? 'in' : 'out'}
      </h2>
      {!e.inSnapshot ? (
        <p>This security has no data as of {e.asOf} (not listed then).</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Checks for {e.ticker}</caption>
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Result</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {checks.map((c, i) => (
              <tr key={i}>
                <td>
                  <code>{c.label}</code>
                </td>
                <td className={c.passes ? 'screener-pass' : 'screener-fail'}>{c.passes ? 'Pass' : 'Fail'}</td>
                <td>{c.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {e.rank !== null ? <p>Rank {e.rank}.</p> : null}
      <p>
        <Link to={`${screenerSearch(search, { explain: null })}#row-${e.permaticker}`} preventScrollReset>
          Close explanation
        </Link>
      </p>
    </section>
  );
}
