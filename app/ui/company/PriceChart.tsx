import { Form, Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { RANGES } from '~/services/company/price-ranges';
import { chartHref, MAX_COMPARISONS, samplingNote, type ChartLinkQuery } from '~/services/company/price-chart';
import type { PriceChartView } from '~/services/company/price-chart.server';
import { BarChart, LineChart, type ChartSeries } from '~/ui/charts';
import { Change } from '~/ui/Change';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';
import { useHydrated } from '~/ui/use-hydrated';
import { money, percent, shares } from './format';

// The Chart tab's body: range and basis links, the compare form (GET, so it works without
// JavaScript), the price or % change lines with a crosshair tooltip, volume bars on the same
// basis, and the sampled data table.

type Company = { ticker: string; permaticker: number };

const href = (view: PriceChartView, asOf: string | null, over: Partial<ChartLinkQuery>) =>
  chartHref({ range: view.range, basis: view.basis, ma: view.ma, compare: view.compare, ...over }, asOf);

const signed = (v: number | null) => {
  const t = percent(v);
  return typeof v === 'number' && v > 0 && !/^0(\.0+)?%$/.test(t) ? `+${t}` : t;
};

export function basisNote(view: PriceChartView): string {
  if (view.basis === 'raw')
    return 'Raw: closes as traded that day and shares traded that day (not adjusted for later splits or dividends).';
  return view.dividends
    ? 'Adjusted: closes adjusted for splits and dividends (total return, dividends reinvested), scaled so the last day is its split-adjusted close; volume adjusted for splits.'
    : 'Adjusted: closes and volume adjusted for splits only (this company has no total-return index for every day of the range, so dividends are not included).';
}

export function PriceChart({ company, asOf, view }: { company: Company; asOf: string | null; view: PriceChartView }) {
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const compareKey = view.compare.join(',');
  // After a comparison is added (or removed) the box is emptied; focus stays where it was.
  useEffect(() => {
    if (input.current) input.current.value = '';
  }, [compareKey]);
  const pctMode = view.mode === 'percent';
  const shown = view.comparisons.filter((c) => c.hasPrices);
  const series: ChartSeries[] = [
    {
      id: 'self',
      label: pctMode ? `${company.ticker} % change` : `${company.ticker} close`,
      points: view.points.map((p) => ({ date: p.date, value: pctMode ? p.pct : p.close })),
    },
  ];
  view.comparisons.forEach((c, i) => {
    if (c.hasPrices)
      series.push({
        id: `c${c.permaticker}`,
        label: `${c.ticker} % change`,
        points: view.points.map((p) => ({ date: p.date, value: p.compare[i] })),
      });
  });
  if (!pctMode && view.ma) {
    series.push({ id: 'sma50', label: 'SMA 50', points: view.points.map((p) => ({ date: p.date, value: p.sma50 })) });
    series.push({ id: 'sma200', label: 'SMA 200', points: view.points.map((p) => ({ date: p.date, value: p.sma200 })) });
  }
  const byDate = new Map(view.points.map((p) => [p.date, p]));
  const extra = (date: string) => {
    const p = byDate.get(date);
    if (!p) return [];
    return [
      ...(pctMode ? [{ label: `${company.ticker} close`, value: money(p.close) }] : []),
      { label: 'Volume', value: shares(p.volume) },
    ];
  };
  const basisLabel = view.basis === 'raw' ? 'raw (as traded)' : view.dividends ? 'adjusted for splits and dividends' : 'split-adjusted';
  const table = view.table;
  return (
    <>
      <nav aria-label="Chart range" className="segmented">
        {RANGES.map((r) => (
          <Link key={r} to={href(view, asOf, { range: r })} aria-current={r === view.range ? 'page' : undefined} preventScrollReset>
            {r}
          </Link>
        ))}
      </nav>
      <nav aria-label="Price basis" className="segmented">
        <Link to={href(view, asOf, { basis: 'adjusted' })} aria-current={view.basis === 'adjusted' ? 'true' : undefined} preventScrollReset>
          Adjusted
        </Link>
        <Link to={href(view, asOf, { basis: 'raw' })} aria-current={view.basis === 'raw' ? 'true' : undefined} preventScrollReset>
          Raw
        </Link>
        {!pctMode ? (
          <Link to={href(view, asOf, { ma: !view.ma })} aria-pressed={view.ma} role="button" preventScrollReset>
            Moving averages (50, 200)
          </Link>
        ) : null}
      </nav>
      <p className="muted" data-testid="basis-note">
        {basisNote(view)}
      </p>
      <section aria-labelledby="compare-title" className="chart-compare">
        <h3 id="compare-title">
          Compare ({view.comparisons.length} of {MAX_COMPARISONS})
        </h3>
        {view.messages.length > 0 ? (
          <ul className="notice-list" role="status" data-testid="compare-messages">
            {view.messages.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        ) : null}
        {view.comparisons.length > 0 ? (
          <ul aria-label="Compared companies" className="compare-list">
            {view.comparisons.map((c) => (
              <li key={c.permaticker}>
                <Link to={`/company/${c.permaticker}/chart`}>
                  {c.ticker} · {c.name}
                </Link>
                {!c.hasPrices ? <span className="muted"> (no prices in this range)</span> : null}{' '}
                <Link
                  className="remove-link"
                  to={href(view, asOf, { compare: view.compare.filter((t) => t !== c.token) })}
                  aria-label={`Remove ${c.ticker} from the comparison`}
                  preventScrollReset
                >
                  Remove
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        <Form method="get" className="inline-form" aria-label="Add a comparison" preventScrollReset>
          {asOf ? <input type="hidden" name="as_of" value={asOf} /> : null}
          <input type="hidden" name="range" value={view.range} />
          <input type="hidden" name="basis" value={view.basis} />
          {view.compare.length > 0 ? <input type="hidden" name="compare" value={compareKey} /> : null}
          <label htmlFor="chart-add">Compare with (ticker or name)</label>
          <input id="chart-add" ref={input} type="text" name="add" autoComplete="off" required maxLength={200} />
          <button type="submit" className="button">
            Add
          </button>
        </Form>
        {pctMode ? <p className="muted">With comparisons every line is the % change from its first close in the range.</p> : null}
      </section>
      <LineChart
        label={`${company.ticker} ${pctMode ? `and ${shown.map((c) => c.ticker).join(', ')}, % change` : 'close'}, ${basisLabel}, range ${view.range}`}
        series={series}
        format={pctMode ? signed : money}
        legend
        table={false}
        tooltipExtra={extra}
      />
      <h3>Volume{view.volume.sampling !== 'daily' ? ` (${view.volume.sampling} totals)` : ''}</h3>
      <BarChart
        label={`${company.ticker} ${view.volume.sampling} volume, ${view.basis === 'raw' ? 'shares as traded' : 'split-adjusted shares'}, range ${view.range}`}
        seriesLabel="Volume"
        points={view.volume.bars}
        format={shares}
        height={140}
        colorIndex={5}
        table={false}
        plain
      />
      <details className="chart-data" open={!hydrated}>
        <summary>Show data table</summary>
        <p className="muted" data-testid="sampling-note">
          {samplingNote(table.sampling, table.days)}
        </p>
        <ScrollRegion label="Price data table">
          <table className="data-table" data-testid="price-table">
            <caption>
              {company.ticker} closes ({basisLabel}), {view.range}
              {view.from && view.end ? `, ${view.from} to ${view.end}` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Close</th>
                <th scope="col">Change</th>
                <th scope="col">Volume</th>
                {view.comparisons.map((c) => (
                  <th scope="col" key={c.permaticker}>
                    {c.ticker} % since start
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((r) => (
                <tr key={r.date}>
                  <th scope="row">{r.date}</th>
                  <td className="num">{money(r.close)}</td>
                  <td className="num">
                    <Change value={r.change} />
                  </td>
                  <td className="num">{shares(r.volume)}</td>
                  {r.compare.map((v, i) => (
                    <td className="num" key={view.comparisons[i].permaticker}>
                      <Change value={v} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </details>
    </>
  );
}
