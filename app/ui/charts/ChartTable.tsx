import type { ChartSeries } from './chart-data';
import { tableRows } from './chart-data';

// The data table every chart carries: the same values the chart draws.
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
  const rows = tableRows(series, maxPoints);
  return (
    <div className={visible ? 'chart-table' : 'visually-hidden'}>
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
    </div>
  );
}
