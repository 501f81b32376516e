import { describe, expect, it } from 'vitest';
import {
  chooseScale,
  dateTicks,
  positiveOnly,
  tableRows,
  thinPoints,
  tickLabel,
  toNivoSeries,
  valueExtent,
  type ChartSeries,
} from './chart-data';

const s = (id: string, values: [string, number | null][]): ChartSeries => ({
  id,
  label: id.toUpperCase(),
  points: values.map(([date, value]) => ({ date, value })),
});

describe('toNivoSeries', () => {
  it('maps dates to x and keeps nulls as gaps, never zeros', () => {
    expect(
      toNivoSeries([
        s('a', [
          ['2024-01-02', 1.5],
          ['2024-01-03', null],
          ['2024-01-04', Number.NaN],
        ]),
      ]),
    ).toEqual([
      {
        id: 'A',
        data: [
          { x: '2024-01-02', y: 1.5 },
          { x: '2024-01-03', y: null },
          { x: '2024-01-04', y: null },
        ],
      },
    ]);
  });
});

describe('thinPoints', () => {
  it('keeps short series whole', () => {
    expect(thinPoints([1, 2, 3], 5)).toEqual([1, 2, 3]);
  });
  it('keeps first and last and evenly spaced points in between', () => {
    const xs = Array.from({ length: 10 }, (_, i) => i);
    expect(thinPoints(xs, 4)).toEqual([0, 3, 6, 9]);
  });
});

describe('chooseScale', () => {
  it('log when any value is positive; non-positive values are left out of the drawing', () => {
    const mixed = [
      s('a', [
        ['2024-01-01', 1],
        ['2024-01-02', 0],
        ['2024-01-03', -3],
        ['2024-01-04', null],
      ]),
    ];
    expect(chooseScale('log', mixed)).toBe('log');
    const { series, skipped } = positiveOnly(mixed);
    expect(skipped).toBe(2);
    expect(series[0].points.map((p) => p.value)).toEqual([1, null, null, null]);
  });
  it('log only when some value is positive', () => {
    expect(
      chooseScale('log', [
        s('a', [
          ['2024-01-01', 1],
          ['2024-01-02', 10],
        ]),
      ]),
    ).toBe('log');
    expect(
      chooseScale('log', [
        s('a', [
          ['2024-01-01', 1],
          ['2024-01-02', 0],
        ]),
      ]),
    ).toBe('log');
    expect(chooseScale('log', [s('a', [['2024-01-01', -2]])])).toBe('linear');
    expect(chooseScale('log', [s('a', [['2024-01-01', null]])])).toBe('linear');
    expect(chooseScale('linear', [s('a', [['2024-01-01', 5]])])).toBe('linear');
  });
  it('ignores missing values', () => {
    expect(
      chooseScale('log', [
        s('a', [
          ['2024-01-01', null],
          ['2024-01-02', 3],
        ]),
      ]),
    ).toBe('log');
  });
});

describe('valueExtent', () => {
  it('spans all series and skips nulls', () => {
    expect(
      valueExtent([
        s('a', [
          ['2024-01-01', 3],
          ['2024-01-02', null],
        ]),
        s('b', [['2024-01-01', -1]]),
      ]),
    ).toEqual({ min: -1, max: 3 });
    expect(valueExtent([s('a', [['2024-01-01', null]])])).toBeNull();
  });
});

describe('dateTicks', () => {
  it('uses month starts on the smallest calendar step that fits', () => {
    expect(dateTicks('2024-01-15', '2024-12-31', 6)).toEqual(['2024-03-01', '2024-05-01', '2024-07-01', '2024-09-01', '2024-11-01']);
    expect(dateTicks('2024-01-15', '2024-12-31', 12)).toEqual([
      '2024-02-01',
      '2024-03-01',
      '2024-04-01',
      '2024-05-01',
      '2024-06-01',
      '2024-07-01',
      '2024-08-01',
      '2024-09-01',
      '2024-10-01',
      '2024-11-01',
      '2024-12-01',
    ]);
  });
  it('uses years on long ranges', () => {
    expect(dateTicks('2001-06-01', '2024-06-01', 6)).toEqual(['2005-01-01', '2010-01-01', '2015-01-01', '2020-01-01']);
    expect(dateTicks('2019-06-01', '2024-06-01', 6)).toEqual(['2020-01-01', '2021-01-01', '2022-01-01', '2023-01-01', '2024-01-01']);
  });
  it('spreads days on short ranges', () => {
    expect(dateTicks('2024-03-01', '2024-03-31', 4)).toEqual(['2024-03-01', '2024-03-11', '2024-03-21', '2024-03-31']);
  });
  it('is empty for an inverted range', () => {
    expect(dateTicks('2024-03-02', '2024-03-01')).toEqual([]);
  });
  it('gives the ticks of walking every step month by month, on ranges of two months to a century', () => {
    // The walk it replaced (it built every step's whole list, 300 ticks at one month for 25 years).
    const walked = (from: string, to: string, maxTicks: number): string[] => {
      const [y, m, d] = from.split('-').map(Number);
      const first = y * 12 + m - 1 + (d > 1 ? 1 : 0);
      const at = (i: number) => `${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}-01`;
      for (const step of [1, 2, 3, 6, 12, 24, 60, 120]) {
        const ticks: string[] = [];
        for (let i = Math.ceil(first / step) * step; at(i) <= to; i += step) ticks.push(at(i));
        if (ticks.length <= maxTicks) return ticks;
      }
      return [from, to];
    };
    const day = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);
    let checked = 0;
    for (let year = 1990; year < 2030; year += 3)
      for (const month of [1, 2, 6, 11, 12])
        for (const dayOfMonth of [1, 2, 15, 28]) {
          const from = Date.UTC(year, month - 1, dayOfMonth) / 86_400_000;
          for (const span of [62, 63, 90, 200, 365, 366, 800, 1_827, 3_653, 9_131, 20_000, 36_600])
            for (const maxTicks of [2, 4, 6, 9, 12, 13]) {
              expect(dateTicks(day(from), day(from + span), maxTicks)).toEqual(walked(day(from), day(from + span), maxTicks));
              checked++;
            }
        }
    expect(checked).toBe(14 * 5 * 4 * 12 * 6);
  });
});

describe('tickLabel', () => {
  it('names years on long spans and months otherwise', () => {
    expect(tickLabel('2020-01-01', 2000)).toBe('2020');
    expect(tickLabel('2020-07-01', 2000)).toBe('Jul 2020');
    expect(tickLabel('2020-07-01', 300)).toBe('Jul 2020');
    expect(tickLabel('2020-07-09', 30)).toBe('Jul 9');
  });
});

describe('tableRows', () => {
  it('one row per date across series, nulls where a series has no point', () => {
    expect(
      tableRows([
        s('a', [
          ['2024-01-01', 1],
          ['2024-01-03', 3],
        ]),
        s('b', [['2024-01-02', 2]]),
      ]),
    ).toEqual([
      { date: '2024-01-01', values: [1, null] },
      { date: '2024-01-02', values: [null, 2] },
      { date: '2024-01-03', values: [3, null] },
    ]);
  });
});
