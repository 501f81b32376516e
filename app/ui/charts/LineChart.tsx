import { Line, type SliceTooltipProps } from '@nivo/line';
import { useHydrated } from '~/ui/use-hydrated';
import { ChartTable } from './ChartTable';
import {
  chooseScale,
  positiveOnly,
  dateExtent,
  dateTicks,
  MAX_CHART_POINTS,
  tickLabel,
  toNivoSeries,
  type ChartSeries,
  type NivoSerie,
  type ScaleKind,
} from './chart-data';
import { CHART_COLORS, CHART_MARGIN, CHART_THEME, DEFAULT_HEIGHT, DEFAULT_WIDTH, TOOLTIP_STYLE } from './theme';
import { toEpochDay } from '~/services/dates';
import { useChartWidth } from './use-chart-width';
import { chartKey, ServerSvg } from './server-svg';

// The one line chart of Quarry: nivo's non-responsive <Line> (the Responsive* variants render
// nothing on the server), drawn as SVG on the server so it shows without JavaScript.

export type LineChartProps = {
  /** Accessible name of the chart (role="img"). */
  label: string;
  series: readonly ChartSeries[];
  format: (value: number | null) => string;
  scale?: ScaleKind;
  height?: number;
  /** Data labels are off by default; when on they sit bold on top of each point. */
  dataLabels?: boolean;
  /** Show the data table instead of keeping it for screen readers only. */
  tableVisible?: boolean;
  maxPoints?: number;
  /** Names the series by colour under the chart; on by default when there are several. */
  legend?: boolean;
  /** Off when the page shows its own table of the same values. */
  table?: boolean;
  /** More lines for the crosshair tooltip of a day (e.g. its volume). */
  tooltipExtra?: (date: string) => { label: string; value: string }[];
};

const utc = (d: string) => new Date(`${d}T00:00:00Z`);

function Tooltip({
  slice,
  format,
  extra,
}: SliceTooltipProps<NivoSerie> & { format: (v: number | null) => string; extra?: LineChartProps['tooltipExtra'] }) {
  const date = String(slice.points[0]?.data.xFormatted ?? '');
  return (
    <div style={TOOLTIP_STYLE}>
      <strong style={{ color: '#000' }}>{date}</strong>
      <ul className="chart-tooltip__list">
        {slice.points.map((p) => (
          <li key={p.id} style={{ color: '#000' }}>
            <span className="chart-tooltip__swatch" style={{ background: p.seriesColor }} aria-hidden="true" /> {String(p.seriesId)}:{' '}
            {format(typeof p.data.y === 'number' ? p.data.y : null)}
          </li>
        ))}
        {(extra?.(date) ?? []).map((e) => (
          <li key={e.label} style={{ color: '#000' }}>
            {e.label}: {e.value}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function LineChart({
  label,
  series,
  format,
  scale = 'linear',
  height = DEFAULT_HEIGHT,
  dataLabels = false,
  tableVisible = false,
  maxPoints = MAX_CHART_POINTS,
  legend,
  table = true,
  tooltipExtra,
}: LineChartProps) {
  const hydrated = useHydrated();
  const { ref, width } = useChartWidth(DEFAULT_WIDTH);
  const effectiveScale = chooseScale(scale, series);
  // On a log axis zero and negative values are gaps (never a NaN path); the note says how many.
  const drawn = effectiveScale === 'log' ? positiveOnly(series) : { series: [...series], skipped: 0 };
  const data = toNivoSeries(drawn.series, maxPoints);
  const extent = dateExtent(series);
  const showLegend = legend ?? series.length > 1;
  const span = extent ? toEpochDay(extent.to) - toEpochDay(extent.from) : 0;
  const ticks = extent ? dateTicks(extent.from, extent.to, Math.max(2, Math.floor(width / 110))) : [];
  const empty = data.every((s) => s.data.every((d) => d.y === null));
  return (
    <figure className="chart">
      {empty ? (
        <p className="chart__empty">No data to chart for this selection.</p>
      ) : (
        <div className="chart__canvas" ref={ref} style={{ height }}>
          <ServerSvg
            hydrated={hydrated}
            memoKey={() =>
              chartKey(
                'line',
                { label, width, height, scale: effectiveScale, dataLabels, ticks, span, data },
                data.flatMap((s) => s.data.map((d) => d.y)),
                format,
              )
            }
            draw={() => (
              <Line<NivoSerie>
                width={width}
                height={height}
                data={data}
                role="img"
                ariaLabel={label}
                margin={CHART_MARGIN}
                theme={CHART_THEME}
                colors={CHART_COLORS}
                animate={false}
                curve="monotoneX"
                xScale={{ type: 'time', format: '%Y-%m-%d', precision: 'day', useUTC: true }}
                xFormat="time:%Y-%m-%d"
                yScale={
                  effectiveScale === 'log'
                    ? { type: 'log', base: 10, min: 'auto', max: 'auto' }
                    : { type: 'linear', min: 'auto', max: 'auto', nice: true }
                }
                enableGridX={false}
                enableGridY
                enablePoints={dataLabels}
                pointSize={dataLabels ? 4 : 0}
                enablePointLabel={dataLabels}
                pointLabel={(p) => format(typeof p.data.y === 'number' ? p.data.y : null)}
                pointLabelYOffset={-10}
                lineWidth={2}
                axisBottom={{ tickValues: ticks.map(utc), format: (v: Date) => tickLabel(v.toISOString().slice(0, 10), span), tickSize: 4 }}
                axisLeft={{ tickSize: 4, tickValues: 5, format: (v: number) => format(v) }}
                isInteractive={hydrated}
                useMesh={false}
                enableSlices={hydrated ? 'x' : false}
                sliceTooltip={(props) => <Tooltip {...props} format={format} extra={tooltipExtra} />}
                enableCrosshair={hydrated}
                crosshairType="x"
              />
            )}
          />
        </div>
      )}
      {showLegend && !empty ? (
        <ul className="chart-legend" aria-label="Legend">
          {drawn.series.map((s, i) => (
            <li key={s.id}>
              <span className="chart-tooltip__swatch" style={{ background: CHART_COLORS[i % CHART_COLORS.length] }} aria-hidden="true" />{' '}
              {s.label}
              {s.points.every((p) => p.value === null || !Number.isFinite(p.value)) ? (
                <span className="muted"> (no values in this range)</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {effectiveScale !== scale ? (
        <figcaption className="muted">Log scale needs positive values; shown on a linear scale.</figcaption>
      ) : null}
      {drawn.skipped > 0 ? (
        <p className="muted" data-testid="log-skipped">
          {drawn.skipped === 1 ? '1 value' : `${drawn.skipped} values`} of zero or below cannot be drawn on a log scale and{' '}
          {drawn.skipped === 1 ? 'is' : 'are'} left out of the chart (the table lists {drawn.skipped === 1 ? 'it' : 'them'}).
        </p>
      ) : null}
      {table ? (
        <ChartTable caption={`Data: ${label}`} series={series} format={format} visible={tableVisible} maxPoints={maxPoints} />
      ) : null}
    </figure>
  );
}
