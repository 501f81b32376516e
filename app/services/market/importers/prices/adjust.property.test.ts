import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../dates';
import { adjustSeries } from './adjust';
import { detectLayout, type Layout } from './layouts';
import type { Bar } from './parse-ohlcv';

// One random history written two ways — as traded (Tiingo/Quandl) and split-adjusted with
// split-adjusted dividends (zipline csvdir) — must give the same store rows.

const layout = (header: string): Layout => {
  const l = detectLayout(header.split(','));
  if ('error' in l) throw new Error(l.error);
  return l;
};
const RAW = layout('date,close,high,low,open,volume,adjClose,adjHigh,adjLow,adjOpen,adjVolume,divCash,splitFactor');
const ADJUSTED = layout('date,open,high,low,close,volume,dividend,split');

const day = fc.record({
  ret: fc.double({ min: -0.2, max: 0.2, noNaN: true }),
  dividend: fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 2, noNaN: true })),
  split: fc.oneof(fc.constant(1), fc.constant(1), fc.constant(1), fc.constantFrom(2, 3, 7, 0.5)),
});

function histories(days: { ret: number; dividend: number; split: number }[]): { raw: Bar[]; adjusted: Bar[] } {
  let price = 50;
  const raw: Bar[] = days.map((d, i) => {
    price = (price * (1 + d.ret)) / d.split;
    return {
      date: addDays('2020-01-01', i),
      open: price,
      high: price * 1.01,
      low: price * 0.99,
      close: price,
      volume: 1000,
      adjClose: null,
      dividend: d.dividend,
      split: d.split,
      line: i + 2,
    };
  });
  const after: number[] = [];
  let f = 1;
  for (let i = raw.length - 1; i >= 0; i--) {
    after[i] = f;
    f *= raw[i].split;
  }
  const adjusted = raw.map((b, i) => ({
    ...b,
    open: b.open! / after[i],
    high: b.high! / after[i],
    low: b.low! / after[i],
    close: b.close / after[i],
    volume: b.volume! * after[i],
    dividend: b.dividend / after[i],
  }));
  return { raw, adjusted };
}

describe('adjustSeries', () => {
  it('gives the same rows from traded and from split-adjusted input', () => {
    fc.assert(
      fc.property(fc.array(day, { minLength: 2, maxLength: 60 }), (days) => {
        const { raw, adjusted } = histories(days);
        const a = adjustSeries(raw, RAW, 1, 'prices');
        const b = adjustSeries(adjusted, ADJUSTED, 1, 'prices');
        a.prices.forEach((p, i) => {
          const q = b.prices[i];
          for (const key of ['close', 'closeUnadj', 'tri', 'volume'] as const) expect(p[key]! / q[key]! - 1).toBeCloseTo(0, 9);
        });
        expect(a.actions.map((x) => [x.date, x.action, +x.value!.toFixed(6)])).toEqual(
          b.actions.map((x) => [x.date, x.action, +x.value!.toFixed(6)]),
        );
      }),
    );
  });

  it('is continuous: the total-return index moves by the day’s price return plus its dividend yield', () => {
    fc.assert(
      fc.property(fc.array(day, { minLength: 2, maxLength: 60 }), (days) => {
        const { raw } = histories(days);
        const { prices } = adjustSeries(raw, RAW, 1, 'prices');
        for (let i = 1; i < prices.length; i++) {
          const traded = (raw[i].close * raw[i].split + raw[i].dividend * raw[i].split) / raw[i - 1].close;
          expect(prices[i].tri! / prices[i - 1].tri!).toBeCloseTo(traded, 9);
        }
      }),
    );
  });
});
