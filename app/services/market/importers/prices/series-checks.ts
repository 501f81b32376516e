import type { Bar } from './parse-ohlcv';

// Checks of one ticker's bars that do not reject the file but must not pass silently: a price
// file whose basis is not what it seems (a raw series loaded as adjusted shows a split as an
// overnight crash), and a close outside the day's range (a vendor error). Each warning names
// the file and line.

const SPLIT_RATIOS = [2, 3, 4, 5, 6, 7, 8, 10, 15, 20, 25, 30, 50, 100, 1.5];
/** Prices are quoted to the cent: a close half a cent outside the range is rounding. */
const RANGE_SLACK = 0.005;

/** The split ratio that an overnight move looks like (within 4 %), or null. */
export function splitLikeRatio(previousClose: number, price: number): number | null {
  const move = previousClose / price;
  for (const r of SPLIT_RATIOS) {
    if (Math.abs(move / r - 1) <= 0.04) return r;
    if (Math.abs(move * r - 1) <= 0.04) return 1 / r;
  }
  return null;
}

function ratioText(r: number): string {
  return r >= 1 ? `${r}:1 split` : `1:${Math.round(1 / r)} reverse split`;
}

/** Warnings (`file:line: …`) for one ticker's bars, ascending by date. */
export function seriesWarnings(bars: readonly Bar[], file: string, ticker: string): string[] {
  const out: string[] = [];
  for (let t = 0; t < bars.length; t++) {
    const bar = bars[t];
    if (bar.low !== null && bar.high !== null && (bar.close < bar.low - RANGE_SLACK || bar.close > bar.high + RANGE_SLACK)) {
      out.push(`${file}:${bar.line}: ${ticker} ${bar.date}: close ${bar.close} is outside the day's low–high ${bar.low}–${bar.high}`);
    }
    if (t === 0 || bar.split !== 1) continue;
    // Overnight: the previous close against this open (a split shows whole there; the day's own
    // trading blurs it by the close).
    const price = bar.open ?? bar.close;
    const ratio = splitLikeRatio(bars[t - 1].close, price);
    if (ratio === null) continue;
    out.push(
      `${file}:${bar.line}: ${ticker} ${bar.date}: price moved ${bars[t - 1].close} → ${price} overnight (close to open), like a ${ratioText(ratio)}, ` +
        `and the file has no split that day: if the prices are as traded, import the split (or a file with splits); ` +
        `if they are adjusted, say so with --basis`,
    );
  }
  return out;
}
