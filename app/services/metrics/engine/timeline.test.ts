import { describe, expect, it } from 'vitest';
import { METRIC_IDS } from '../catalogue';
import { syntheticUniverse } from '../testing/synthetic-universe';
import { equalWeightMarket, evaluateAt, evaluateDates } from './evaluate';

// The incremental pass over a timeline must give exactly what a fresh evaluation of each date
// gives, and across a varied universe every catalogue metric must come out for someone.

describe('timeline evaluation', () => {
  const securities = syntheticUniverse({ securities: 40, years: 7, seed: 7 });
  const universe = { securities, market: equalWeightMarket(securities) };
  const dates = ['2021-01-29', '2022-06-30', '2023-03-31', '2024-11-29'];

  it('equals fresh single-date evaluations', () => {
    const incremental = [...evaluateDates(universe, dates)];
    dates.forEach((d, i) => {
      const fresh = evaluateAt(universe, d);
      expect(Array.from(incremental[i].permatickers)).toEqual(Array.from(fresh.permatickers));
      for (const id of METRIC_IDS) expect([id, Array.from(incremental[i].values[id])]).toEqual([id, Array.from(fresh.values[id])]);
    });
  });

  it('produces every catalogue metric for some security', () => {
    const snap = evaluateAt(universe, '2024-11-29');
    expect(snap.permatickers.length).toBeGreaterThan(20);
    const never = METRIC_IDS.filter((id) => snap.values[id].every((v) => Number.isNaN(v)));
    expect(never).toEqual([]);
    for (const id of METRIC_IDS) for (const v of snap.values[id]) expect(v === Infinity || v === -Infinity).toBe(false);
  });
});
