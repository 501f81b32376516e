import type { CurvePoint } from '~/services/backtest/result-view';
import { MAX_CHART_POINTS, thinPoints } from '~/ui/charts/chart-data';

// The curves travel to the browser already thinned to what the charts draw (the CSV has every
// day), so a 25-year daily backtest does not put thousands of points into the page's data.
export function thinCurve(curve: readonly CurvePoint[]): CurvePoint[] {
  return thinPoints(curve, MAX_CHART_POINTS);
}
