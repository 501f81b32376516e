import type { LoaderFunctionArgs } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { guard } from '~/services/auth/guard.server';
import { asOfQuery } from '~/services/http/as-of';
import { companyFinancials } from '~/services/company/company-pages.server';
import { companyPageContext } from '~/services/company/company-route.server';
import { pageError } from '~/services/http/page-errors';
import { PERIOD_IDS, PERIOD_LABELS, STATEMENT_IDS, STATEMENTS } from '~/services/company/financials';
import { BarChart } from '~/ui/charts';
import { AsOfLine, BadAsOf } from '~/ui/company/BadAsOf';
import { FilingRef } from '~/ui/company/FilingRef';
import { percent, ratio, statementValue } from '~/ui/company/format';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

const Query = z.object({
  statement: z.enum(STATEMENT_IDS as ['income', 'balance', 'cash_flow']).catch('income'),
  period: z.enum(PERIOD_IDS as ['annual', 'quarterly', 'ttm']).catch('annual'),
  line: z.string().max(40).optional().catch(undefined),
});

export async function loader({ request, params }: LoaderFunctionArgs) {
  await guard(request);
  const { company, asOf, asOfError, url } = await companyPageContext(request, params.id);
  const q = Query.parse(Object.fromEntries(url.searchParams));
  if (asOfError) return data({ error: asOfError, company, asOf, q, statement: null }, { status: 400 });
  const statement = await companyFinancials(company, asOf, q.statement, q.period).catch(pageError);
  return { error: null, company, asOf, q, statement };
}

export default function CompanyFinancial() {
  const { error, company, asOf, q, statement } = useLoaderData<typeof loader>();
  if (error || !statement) return <BadAsOf message={error ?? ''} />;
  const link = (over: Record<string, string>) =>
    `?${new URLSearchParams({ ...(asOf ? { as_of: asOf } : {}), statement: q.statement, period: q.period, ...over }).toString()}`;
  const selected = statement.lines.find((l) => l.id === q.line) ?? statement.lines[0];
  const chartPoints = [...statement.columns].map((c, i) => ({ date: c.label, value: selected?.cells[i]?.value ?? null })).reverse();
  const title = `${STATEMENTS[q.statement].label} (${PERIOD_LABELS[q.period]})`;
  return (
    <section aria-labelledby="fin-title">
      <h2 id="fin-title">Financials</h2>
      <AsOfLine requested={asOf} date={asOf ?? company.last_price_date} what="Filings known" />
      <nav aria-label="Statement" className="segmented">
        {STATEMENT_IDS.map((s) => (
          <Link key={s} to={link({ statement: s })} aria-current={s === q.statement ? 'page' : undefined}>
            {STATEMENTS[s].label}
          </Link>
        ))}
      </nav>
      <nav aria-label="Period" className="segmented">
        {PERIOD_IDS.map((p) => (
          <Link key={p} to={link({ period: p })} aria-current={p === q.period ? 'page' : undefined}>
            {PERIOD_LABELS[p]}
          </Link>
        ))}
      </nav>
      {company.is_demo ? (
        <p className="muted">Demo company: each value shows its filing date and fictional accession instead of an SEC link.</p>
      ) : null}
      {statement.columns.length === 0 ? (
        <p>No {title.toLowerCase()} known on this date.</p>
      ) : (
        <>
          <Form method="get" className="inline-form">
            {asOf ? <input type="hidden" name="as_of" value={asOf} /> : null}
            <input type="hidden" name="statement" value={q.statement} />
            <input type="hidden" name="period" value={q.period} />
            <label htmlFor="line-select">Line to chart</label>
            <select id="line-select" name="line" defaultValue={selected?.id}>
              {statement.lines.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.label}
                </option>
              ))}
            </select>
            <button type="submit" className="button">
              Chart
            </button>
          </Form>
          {selected ? (
            <BarChart
              label={`${company.ticker} ${selected.label}, ${PERIOD_LABELS[q.period]}`}
              seriesLabel={selected.label}
              points={chartPoints}
              format={(v) => statementValue(selected.unit, v)}
              height={220}
            />
          ) : null}
          <ScrollRegion label="Financial statement table" className="statement-scroll">
            <table className="data-table statement">
              <caption id="statement-caption">{title}, newest first; each value links to its filing</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  {statement.columns.map((c) => (
                    <th scope="col" key={c.key}>
                      {c.label}
                      <br />
                      <span className="muted">{c.periodEnd}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {statement.lines.map((l) => (
                  <tr key={l.id}>
                    <th scope="row">{l.label}</th>
                    {l.cells.map((c, i) => (
                      <td key={statement.columns[i].key} className="num">
                        {c ? (
                          <>
                            <span className="cell-value">{statementValue(l.unit, c.value)}</span>
                            <br />
                            <small>
                              <FilingRef url={c.url} accession={c.accession} filed={c.filed} form={c.form} compact />
                              {c.derived ? (
                                <abbr title={`Derived: ${c.derivation ?? 'computed from filed values'} (see the note below the table)`}>
                                  {' '}
                                  *
                                </abbr>
                              ) : null}
                            </small>
                          </>
                        ) : (
                          'n/a'
                        )}
                      </td>
                    ))}
                  </tr>
                ))}
                {[...statement.growth, ...statement.margins].map((r) => (
                  <tr key={r.id} className="derived-row">
                    <th scope="row">{r.label}</th>
                    {r.values.map((v, i) => (
                      <td key={statement.columns[i].key} className="num">
                        {r.id === 'debt_to_equity' || r.id === 'current_ratio' ? ratio(v) : percent(v)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <p className="muted">
            * derived, not a value as filed: a fourth quarter is the latest fiscal year known on this date minus the latest nine months
            known (both on the same share basis); for EPS that is the nine-month EPS the third-quarter 10-Q reports, and only where none was
            filed the year minus its three quarters (the marker&apos;s title and the downloads say which). TTM is four quarters, free cash
            flow is operating cash flow minus capex; the date is that of the newest filing used. Per-share values and share counts are
            adjusted for splits to the share basis of this date (the JSON and CSV downloads carry each value as filed beside it).
          </p>
          <p className="muted">
            Precision as reported: SEC&apos;s company facts carry no XBRL decimals, so each value&apos;s precision is read from the
            company&apos;s filings: amounts to their trailing zeros (a company stating millions gives 394,328,000,000), per-share values to
            their decimal places, at least cents. A split adjustment adds the digits the ratio moves (44.15 ÷ 28 = 1.5768, four places); a
            derived value (Q4, TTM, free cash flow) is rounded to the coarsest precision among its parts (0.17 − 0.117 = 0.05), and growth
            rates and margins are computed from the values as shown. The JSON gives each value&apos;s decimals.
          </p>
        </>
      )}
      <p className="downloads">
        Data: <a href={`/api/v1/financials/${company.permaticker}${asOfQuery(asOf, { statement: q.statement, period: q.period })}`}>JSON</a>{' '}
        ·{' '}
        <a
          href={`/api/v1/financials/${company.permaticker}${asOfQuery(asOf, { statement: q.statement, period: q.period, format: 'csv' })}`}
          download
        >
          CSV
        </a>
      </p>
    </section>
  );
}
