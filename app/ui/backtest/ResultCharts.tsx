import { Link } from '@remix-run/react';
import { resultHref, type CurvePoint, type ResultQuery } from '~/services/backtest/result-view';
import { LineChart, type ChartSeries } from '~/ui/charts';
import { money, percent } from '~/ui/company/format';

// Equity against the benchmark (and the survivors-only run), with a log-scale switch that is a
// plain link (works without JavaScript), and the drawdown below it.

export function ResultCharts({ curve, base, query }: { curve: CurvePoint[]; base: string; query: ResultQuery }) {
  const series: ChartSeries[] = [
    { id: 'equity', label: 'Strategy', points: curve.map((p) => ({ date: p.date, value: p.equity })) },
    { id: 'benchmark', label: 'Benchmark', points: curve.map((p) => ({ date: p.date, value: p.benchmark })) },
  ];
  if (curve.some((p) => p.survivors !== null))
    series.push({ id: 'survivors', label: 'Survivors only', points: curve.map((p) => ({ date: p.date, value: p.survivors })) });
  const drawdown: ChartSeries[] = [{ id: 'drawdown', label: 'Drawdown', points: curve.map((p) => ({ date: p.date, value: p.drawdown })) }];
  return (
    <section aria-labelledby="equity-title">
      <h2 id="equity-title">Equity against the benchmark</h2>
      <nav aria-label="Chart scale" className="segmented">
        <Link
          to={resultHref(base, query, { scale: 'linear' }, 'equity-title')}
          aria-current={query.scale === 'linear' ? 'true' : undefined}
          preventScrollReset
        >
          Linear scale
        </Link>
        <Link
          to={resultHref(base, query, { scale: 'log' }, 'equity-title')}
          aria-current={query.scale === 'log' ? 'true' : undefined}
          preventScrollReset
        >
          Log scale
        </Link>
      </nav>
      <LineChart
        label={`Equity of the strategy against the benchmark${series.length > 2 ? ' and the survivors-only run' : ''}, ${query.scale} scale`}
        series={series}
        format={money}
        scale={query.scale}
        legend
      />
      <h2 id="drawdown-title">Drawdown</h2>
      <LineChart label="Drawdown of the strategy (below its running peak)" series={drawdown} format={percent} height={200} />
    </section>
  );
}
