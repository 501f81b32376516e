import { useHydrated } from '~/ui/use-hydrated';
import type { ChartSeries } from './chart-data';
import { tableRows } from './chart-data';
import { chartKey, ServerTable } from './server-svg';

// The data table every chart carries: the same values the chart draws. On the server it is kept
// as markup, as the chart's SVG is (server-svg.tsx).
export function ChartTable({
  caption,
  series,
  format,
  visible = false,
  maxPoints,
}: {
  caption: string;
  series: readonly ChartSeries[];
  format: (v: number | null) => string;
  visible?: boolean;
  maxPoints?: number;
}) {
  const hydrated = useHydrated();
  const rows = tableRows(series, maxPoints);
  const labels = series.map((s) => s.label);
  return (
    <ServerTable
      hydrated={hydrated}
      className={visible ? 'chart-table' : 'visually-hidden'}
      memoKey={() =>
        chartKey(
          'table',
          { caption, labels, dates: rows.map((r) => r.date) },
          rows.flatMap((r) => r.values),
          format,
        )
      }
      draw={() => (
        <table className="data-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              {series.map((s) => (
                <th scope="col" key={s.id}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.date}>
                <th scope="row">{r.date}</th>
                {r.values.map((v, i) => (
                  <td key={series[i].id} className="num">
                    {format(v)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    />
  );
}
