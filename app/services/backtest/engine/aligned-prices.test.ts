import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../metrics/testing/synthetic-universe';
import { NEVER, alignPrices, barAt } from './aligned-prices';
import { barAtOrBefore, tradingCalendar } from './calendar';
import { TradeDayPrices } from './trade-day-prices';
import type { PriceSeries } from './types';

// The aligned lookup is a faster barAtOrBefore: it must give the same bar for every series and
// every calendar day, whatever the series looks like (gaps, bars outside the run, no bars).
function panel(seed: number): PriceSeries[] {
  const rand = mulberry32(seed);
  const days = Array.from({ length: 120 }, (_, i) => 18_000 + i + Math.floor(i / 5) * 2);
  return Array.from({ length: 40 }, (_, k) => {
    const from = k % 4 === 0 ? 0 : Math.floor(rand() * 100);
    const to = k % 3 === 0 ? days.length : from + Math.floor(rand() * (days.length - from));
    const sparse = k % 5 === 0 ? 0.3 : k % 2 === 0 ? 0.02 : 0;
    const mine = days.slice(from, to).filter(() => rand() >= sparse);
    return {
      permaticker: k + 1,
      days: Int32Array.from(mine),
      tri: Float64Array.from(mine, () => 1 + rand()),
      close: Float64Array.from(mine, () => 1 + rand()),
      delisted: k % 3 !== 0,
    };
  });
}

describe('prices aligned to the calendar', () => {
  for (const seed of [1, 2, 3]) {
    const series = panel(seed);
    // The run covers the middle of the data: bars before and after it, and series wholly outside.
    const calendar = tradingCalendar(series, 18_030, 18_120);
    const aligned = alignPrices(series, calendar);

    it(`gives barAtOrBefore's bar on every calendar day (panel ${seed})`, () => {
      expect(aligned.gaps.some((g) => g !== null)).toBe(true);
      for (let i = 0; i < series.length; i++) {
        const bars = Array.from(calendar, (_, t) => barAt(aligned, i, t));
        expect([i, bars]).toEqual([i, Array.from(calendar, (day) => barAtOrBefore(series[i].days, day))]);
      }
    });

    it(`reads a trade day's price alone as in its batch row, in and out of the loaded batch (panel ${seed})`, () => {
      // Every other calendar day trades: more than one batch of trade days, read out of order.
      const tradeDays = Int32Array.from({ length: Math.ceil(calendar.length / 2) }, (_, k) => 2 * k);
      const rows = new TradeDayPrices(aligned, tradeDays);
      const alone = new TradeDayPrices(aligned, tradeDays);
      for (const k of [...tradeDays.keys()].reverse()) {
        const row = Array.from(rows.row(k));
        const read = row.map((_, i) => alone.price(i, k));
        // The same value, NaN (no bar yet) included; the loaded batch serves too.
        expect([k, read]).toEqual([k, row]);
        expect([k, row.map((_, i) => rows.price(i, k))]).toEqual([k, row]);
      }
    });

    it(`settles a delisted series from the first day its last bar is current (panel ${seed})`, () => {
      for (let i = 0; i < series.length; i++) {
        const last = series[i].days.length - 1;
        let expected = NEVER;
        if (series[i].delisted && last >= 0) for (let t = calendar.length - 1; t >= 0 && barAt(aligned, i, t) === last; t--) expected = t;
        expect([i, aligned.settle[i]]).toEqual([i, expected]);
      }
    });
  }

  it('handles a series without bars', () => {
    const empty: PriceSeries = {
      permaticker: 1,
      days: new Int32Array(0),
      tri: new Float64Array(0),
      close: new Float64Array(0),
      delisted: true,
    };
    const other: PriceSeries = {
      permaticker: 2,
      days: Int32Array.from([5, 6, 7]),
      tri: Float64Array.from([1, 2, 3]),
      close: Float64Array.from([1, 2, 3]),
      delisted: false,
    };
    const aligned = alignPrices([empty, other], tradingCalendar([empty, other], 0, 10));
    expect([0, 1, 2].map((t) => barAt(aligned, 0, t))).toEqual([-1, -1, -1]);
    expect(aligned.settle[0]).toBe(NEVER);
  });
});
