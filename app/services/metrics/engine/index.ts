// The point-in-time metrics engine: pure, columnar, no I/O.
export * from './types';
export {
  buildFactColumns,
  buildFactColumnsFromDays,
  type FactDayRow,
  factsForMode,
  EMPTY_FACTS,
  type FactRow,
  type FactMode,
} from './facts';
export { evaluateAt, evaluateDates, equalWeightMarket, UniverseEvaluator, SecurityEvaluator, STALE_AFTER_DAYS } from './evaluate';
export { metricSeriesOf, type SeriesPoint, type SeriesOptions } from './series';
export { metricValue, metricColumn, securityMetrics, pickMetrics, rowOf, toNullable } from './snapshot';
