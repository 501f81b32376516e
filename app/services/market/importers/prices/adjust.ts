import type { CorporateActionRecord, PriceRecord } from '../../store/records';
import type { Bar } from './parse-ohlcv';
import type { Layout } from './layouts';

// Puts bars on the store's basis (schema.ts): open/high/low/close split-adjusted to the latest
// split, close_unadj as traded, tri a total-return index. Dividends and splits in the file become
// corporate actions; a dividend is stored as cash per share as traded on its ex-date.

export type AdjustedSeries = { prices: PriceRecord[]; actions: CorporateActionRecord[] };

export function adjustSeries(bars: Bar[], layout: Layout, permaticker: number, source: string): AdjustedSeries {
  const hasActions = layout.columns.dividend !== null || layout.columns.split !== null;
  // A split- and dividend-adjusted file with its dividends: the dividend factor is taken out again,
  // so close (and market cap, every multiple) is on a split-only basis and the given close is the
  // total-return index. Without dividends it cannot be, and parsePriceCsv warns.
  const undo = layout.basis === 'split-dividend-adjusted' && layout.columns.dividend !== null ? dividendFactors(bars) : null;
  // after[t] = product of the split ratios with an ex-date after day t.
  const after = new Array<number>(bars.length);
  let factor = 1;
  for (let t = bars.length - 1; t >= 0; t--) {
    after[t] = factor;
    factor *= bars[t].split;
  }
  const prices: PriceRecord[] = [];
  const actions: CorporateActionRecord[] = [];
  let tri = 0;
  let previousClose = 0;
  bars.forEach((bar, t) => {
    const f = after[t];
    const toAdjusted = layout.basis === 'raw' ? 1 / f : undo ? 1 / undo[t] : 1;
    const close = bar.close * toAdjusted;
    const scale = (v: number | null) => (v === null ? null : v * toAdjusted);
    const dividendAdjusted = layout.basis === 'raw' ? bar.dividend / f : bar.dividend;
    const dividendRaw = layout.basis === 'raw' ? bar.dividend : bar.dividend * f;
    if (layout.basis === 'split-dividend-adjusted') {
      // Dividends are already in the prices: the file's close is the total-return index.
      tri = bar.close;
    } else if (hasActions) {
      // Reinvest the dividend at the close: the day's return is (close + dividend) / previous close.
      tri = t === 0 ? close : (tri * (close + dividendAdjusted)) / previousClose;
    } else {
      tri = bar.adjClose ?? close;
    }
    previousClose = close;
    prices.push({
      permaticker,
      date: bar.date,
      open: scale(bar.open),
      high: scale(bar.high),
      low: scale(bar.low),
      close,
      volume: bar.volume === null ? null : layout.basis === 'raw' ? bar.volume * f : bar.volume,
      closeUnadj: layout.basis === 'raw' ? bar.close : hasActions ? close * f : null,
      tri,
    });
    if (bar.dividend > 0) {
      actions.push({ permaticker, date: bar.date, action: 'dividend', value: roundCash(dividendRaw), detail: null, source });
    }
    if (bar.split !== 1) actions.push({ permaticker, date: bar.date, action: 'split', value: bar.split, detail: null, source });
  });
  return { prices, actions };
}

/**
 * The dividend factor of each day in a split- and dividend-adjusted series: D[t] = product over
 * later ex-dates s of (1 − dividend[s] / close[s − 1]), the multiplicative adjustment of Yahoo and
 * CRSP, with close the split-adjusted close. Walking back from the last bar (D = 1) the close is
 * recovered at each step: adjusted[t − 1] = D[t] · (close[t − 1] − dividend[t]), so
 * close[t − 1] = adjusted[t − 1] / D[t] + dividend[t]. Dividends are per share on the file's split basis.
 */
export function dividendFactors(bars: readonly Bar[]): number[] {
  const d = new Array<number>(bars.length).fill(1);
  for (let t = bars.length - 1; t > 0; t--) {
    const div = bars[t].dividend;
    if (!(div > 0)) {
      d[t - 1] = d[t];
      continue;
    }
    const close = bars[t - 1].close / d[t] + div;
    d[t - 1] = close > 0 ? bars[t - 1].close / close : d[t];
  }
  return d;
}

/** Split-adjusted dividends times the split factor carry float noise (0.47 × 7 = 3.2899999...). */
function roundCash(x: number): number {
  return Math.round(x * 1e8) / 1e8;
}
