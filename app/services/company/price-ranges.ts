import { addDays, addMonths, type IsoDate } from '../dates';

// Chart ranges and moving averages of the price chart tab (pure).

export const RANGES = ['1M', '6M', 'YTD', '1Y', '5Y', 'Max'] as const;
export type Range = (typeof RANGES)[number];

/** First date of a range ending on `end` (inclusive); null for Max. */
export function rangeStart(range: Range, end: IsoDate): IsoDate | null {
  switch (range) {
    case '1M':
      return addDays(addMonths(end, -1), 1);
    case '6M':
      return addDays(addMonths(end, -6), 1);
    case 'YTD':
      return `${end.slice(0, 4)}-01-01`;
    case '1Y':
      return addDays(addMonths(end, -12), 1);
    case '5Y':
      return addDays(addMonths(end, -60), 1);
    case 'Max':
      return null;
  }
}

/** Simple moving average of closes over `window` points; null until the window is full. */
export function movingAverage(values: readonly number[], window: number): (number | null)[] {
  const out: (number | null)[] = [];
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    if (i >= window) sum -= values[i - window];
    out.push(i >= window - 1 ? sum / window : null);
  }
  return out;
}
