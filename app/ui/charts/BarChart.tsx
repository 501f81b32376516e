import { Bar, type BarCustomLayerProps } from '@nivo/bar';
import { useHydrated } from '~/ui/use-hydrated';
import { ChartTable } from './ChartTable';
import { dateTicks, MAX_CHART_POINTS, thinPoints, type ChartPoint } from './chart-data';
import { CHART_COLORS, CHART_MARGIN, CHART_THEME, DEFAULT_HEIGHT, DEFAULT_WIDTH, TOOLTIP_STYLE } from './theme';
import { useChartWidth } from './use-chart-width';
import { chartKey, ServerSvg } from './server-svg';

// Bars for one series over dates or labelled periods (volume, dividends per year), same
// settings as the line chart: SVG on the server, the styling of theme.ts, a table beside it.

export type BarChartProps = {
  label: string;
  seriesLabel: string;
  points: readonly ChartPoint[];
  format: (value: number | null) => string;
  height?: number;
  dataLabels?: boolean;
  tableVisible?: boolean;
  colorIndex?: number;
  /** Off when the page shows its own table of the same values. */
  table?: boolean;
  /**
   * Many bars (daily volume): nivo's bar layer is swapped for plain rects at the positions nivo
   * computed, without a spring per bar (which cost most of the page's render time) and without
   * per-bar tooltips.
   */
  plain?: boolean;
};

type Row = { date: string; value: number };

export function BarChart({
  label,
  seriesLabel,
  points,
  format,
  height = DEFAULT_HEIGHT,
  dataLabels = false,
  tableVisible = false,
  colorIndex = 0,
  table = true,
  plain = false,
}: BarChartProps) {
  const hydrated = useHydrated();
  const { ref, width } = useChartWidth(DEFAULT_WIDTH);
  const thinned = thinPoints(points, MAX_CHART_POINTS);
  const rows: Row[] = thinned.map((p) => ({ date: p.date, value: p.value ?? 0 }));
  const isDates = rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.date));
  const maxTicks = Math.max(2, Math.floor(width / 110));
  const tickValues =
    isDates && rows.length > maxTicks
      ? pickEvery(
          rows.map((r) => r.date),
          maxTicks,
        )
      : undefined;
  return (
    <figure className="chart">
      {rows.length === 0 ? (
        <p className="chart__empty">No data to chart for this selection.</p>
      ) : (
        <div className="chart__canvas" ref={ref} style={{ height }}>
          <ServerSvg
            hydrated={hydrated}
            memoKey={() =>
              chartKey(
                'bar',
                { label, seriesLabel, width, height, dataLabels, colorIndex, tickValues, rows, plain },
                rows.map((r) => r.value),
                format,
              )
            }
            draw={() => (
              <Bar<Row>
                width={width}
                height={height}
                data={rows}
                keys={['value']}
                indexBy="date"
                role="img"
                ariaLabel={label}
                margin={CHART_MARGIN}
                theme={CHART_THEME}
                colors={[CHART_COLORS[colorIndex % CHART_COLORS.length]]}
                animate={false}
                padding={0.2}
                enableGridX={false}
                enableGridY
                enableLabel={dataLabels}
                labelPosition="end"
                labelOffset={-8}
                label={(d) => format(d.value)}
                axisBottom={{ tickValues, tickSize: 4 }}
                axisLeft={{ tickSize: 4, tickValues: 5, format: (v: number) => format(v) }}
                layers={plain ? ['grid', 'axes', PlainBars] : undefined}
                isInteractive={hydrated && !plain}
                tooltip={(d) => (
                  <div style={TOOLTIP_STYLE}>
                    <strong>{String(d.indexValue)}</strong>
                    <div>
                      {seriesLabel}: {format(d.value)}
                    </div>
                  </div>
                )}
              />
            )}
          />
        </div>
      )}
      {table ? (
        <ChartTable
          caption={`Data: ${label}`}
          series={[{ id: 'v', label: seriesLabel, points: [...thinned] }]}
          format={format}
          visible={tableVisible}
        />
      ) : null}
    </figure>
  );
}

/** The bars nivo laid out, drawn as rects (no animation state). */
function PlainBars({ bars }: BarCustomLayerProps<Row>) {
  return (
    <g>
      {bars.map((b) => (
        <rect key={b.key} x={b.x} y={b.y} width={b.width} height={b.height} fill={b.color} />
      ))}
    </g>
  );
}

/** Evenly spread band ticks (dates are categories on a bar chart). */
function pickEvery(values: string[], max: number): string[] {
  const extent = { from: values[0], to: values[values.length - 1] };
  const wanted = dateTicks(extent.from, extent.to, max);
  // Snap each calendar tick to the first bar on or after it.
  const out: string[] = [];
  let j = 0;
  for (const t of wanted) {
    while (j < values.length && values[j] < t) j++;
    if (j < values.length && out[out.length - 1] !== values[j]) out.push(values[j]);
  }
  return out;
}
