import type { BrowserData, ValueFiling } from '~/services/data-browser/data-browser.server';
import { FilingRef } from '~/ui/company/FilingRef';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

/**
 * The metric's history as a table, newest first, one column per company (the CSV holds the same)
 * and beside each the filing its value comes from; "—" where a value rests on prices alone.
 */
export function HistoryTable({ result, format }: { result: BrowserData; format: (v: number | null) => string }) {
  const { metric, companies } = result;
  const rows = result.rows.map((r, i) => ({ ...r, filings: result.filings[i] })).reverse();
  return (
    <ScrollRegion label="History table">
      <table className="data-table" data-testid="history-table">
        <caption id="history-caption">
          {metric.label}: {result.rows.length} dates (each value in force on the date, with the filing it comes from)
        </caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            {companies.map((c) => [
              <th scope="col" key={c.permaticker}>
                {c.ticker}
              </th>,
              <th scope="col" key={`${c.permaticker}-filing`}>
                {companies.length > 1 ? `${c.ticker} filing` : 'Filing'}
              </th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.date}>
              <th scope="row">{r.date}</th>
              {r.values.map((v, i) => [
                <td key={companies[i].permaticker} className="num">
                  {format(v)}
                </td>,
                <td key={`${companies[i].permaticker}-filing`} data-testid="value-filing">
                  <Filing filing={r.filings[i]} />
                </td>,
              ])}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function Filing({ filing }: { filing: ValueFiling | null }) {
  if (!filing) return <span title="Price data: no filing">—</span>;
  return (
    <>
      {filing.form ? `${filing.form} ` : null}
      <FilingRef url={filing.url} accession={filing.accession} filed={filing.filed} form={filing.form} compact />
    </>
  );
}
