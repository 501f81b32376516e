import type { BrowserData } from '~/services/data-browser/data-browser.server';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

/** The metric's history as a table, newest first, one column per company (the CSV holds the same). */
export function HistoryTable({ result, format }: { result: BrowserData; format: (v: number | null) => string }) {
  const { metric, companies } = result;
  return (
    <ScrollRegion label="History table">
      <table className="data-table" data-testid="history-table">
        <caption id="history-caption">
          {metric.label}: {result.rows.length} dates (each value in force on the date)
        </caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            {companies.map((c) => (
              <th scope="col" key={c.permaticker}>
                {c.ticker}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...result.rows].reverse().map((r) => (
            <tr key={r.date}>
              <th scope="row">{r.date}</th>
              {r.values.map((v, i) => (
                <td key={companies[i].permaticker} className="num">
                  {format(v)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
