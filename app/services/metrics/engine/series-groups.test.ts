import { describe, expect, it } from 'vitest';
import { fromEpochDay } from '../../dates';
import { syntheticUniverse } from '../testing/synthetic-universe';
import { SecurityEvaluator, equalWeightMarket, unionOfDays } from './evaluate';
import { metricIndex, N_METRICS } from './metric-index';
import { metricSeriesOf } from './series';

// A metric's history evaluates only the technicals and dividends that metric needs; every point
// must still be what the full evaluation (every metric) gives on that day.

describe('metric series skip what the metric does not need', () => {
  const universe = syntheticUniverse({ securities: 6, years: 7, seed: 21 });
  const calendar = unionOfDays(universe);
  const market = equalWeightMarket(universe);
  const metrics = ['rsi14', 'revenue_ttm', 'dividend_yield', 'dividend_growth_streak', 'pe_ttm', 'beta_1y', 'avg_volume_20d', 'ret_ytd'];

  it.each(metrics)('%s equals the full evaluation on every day', (id) => {
    for (const input of universe) {
      const series = metricSeriesOf(input, market, id, {
        fromDay: Number.NEGATIVE_INFINITY,
        toDay: Number.POSITIVE_INFINITY,
        asOfDay: Number.POSITIVE_INFINITY,
        mode: 'point_in_time',
        calendar,
      });
      const full = new SecurityEvaluator(input, calendar);
      const row = new Float64Array(N_METRICS);
      const byDate = new Map<string, number | null>();
      for (const day of input.dates) {
        if (!full.evaluateInto(day, row, market)) continue;
        const v = row[metricIndex(id)];
        byDate.set(fromEpochDay(day), Number.isNaN(v) ? null : v);
      }
      expect(series.length).toBeGreaterThan(0);
      for (const p of series) expect(p.value, `${id} ${input.permaticker} ${p.date}`).toBe(byDate.get(p.date));
    }
  });
});
