import { describe, expect, it } from 'vitest';
import { METRIC_IDS } from '../catalogue';
import { syntheticUniverse } from '../testing/synthetic-universe';
import { toEpochDay } from '../../dates';
import { equalWeightMarket, evaluateAt, evaluateDates, SecurityEvaluator, unionOfDays, UniverseEvaluator } from './evaluate';
import { N_METRICS } from './metric-index';

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

  it('gives the same bits evaluating many days a security at a time as one day at a time', () => {
    // Every month-end of the span: securities list and delist in between, so rows shift.
    const days: number[] = [];
    for (let y = 2018; y <= 2024; y++) for (let m = 1; m <= 12; m++) days.push(toEpochDay(`${y}-${String(m).padStart(2, '0')}-01`) - 1);
    const together = new UniverseEvaluator(universe).evaluateDays(days, (n) => new Float64Array(n));
    const stored = new UniverseEvaluator(universe).evaluateDays(days, (n) => new Float32Array(n));
    // The reference: a day at a time, every listed security in permaticker order, row by row.
    const evaluators = [...securities]
      .sort((a, b) => a.permaticker - b.permaticker)
      .map((s) => new SecurityEvaluator(s, unionOfDays(securities)));
    const row = new Float64Array(N_METRICS);
    const bits = (a: Float64Array | Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');
    const listedCounts = new Set<number>();
    days.forEach((day, k) => {
      const listed = evaluators.filter((ev) => ev.listedIndex(day) >= 0);
      const columns = METRIC_IDS.map(() => new Float64Array(listed.length));
      listed.forEach((ev, r) => {
        ev.evaluateInto(day, row, universe.market);
        columns.forEach((c, m) => (c[r] = row[m]));
      });
      listedCounts.add(listed.length);
      expect(Array.from(together[k].permatickers)).toEqual(listed.map((ev) => ev.permaticker));
      METRIC_IDS.forEach((id, m) => {
        expect([id, day, bits(together[k].columns[m])]).toEqual([id, day, bits(columns[m])]);
        // The stored form holds each value rounded to Float32, as Float32Array.from rounds it.
        expect([id, day, bits(stored[k].columns[m])]).toEqual([id, day, bits(Float32Array.from(columns[m]))]);
      });
    });
    expect(listedCounts.size).toBeGreaterThan(3);
  });

  it('produces every catalogue metric for some security', () => {
    const snap = evaluateAt(universe, '2024-11-29');
    expect(snap.permatickers.length).toBeGreaterThan(20);
    const never = METRIC_IDS.filter((id) => snap.values[id].every((v) => Number.isNaN(v)));
    expect(never).toEqual([]);
    for (const id of METRIC_IDS) for (const v of snap.values[id]) expect(v === Infinity || v === -Infinity).toBe(false);
  });
});
