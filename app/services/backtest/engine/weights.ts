import type { Weighting } from './params';

// Target weights of the selected securities, best first. Each scheme returns weights summing to 1
// (before the cap); `capWeights` then limits any one position.

export type WeightInputs = {
  /** Market caps on the signal date (NaN = unknown). */
  marketCap: Float64Array;
  /** Trailing daily-return standard deviations (NaN = too little history). */
  volatility: Float64Array;
};

export function targetWeights(weighting: Weighting, n: number, inputs: WeightInputs): Float64Array {
  const w = new Float64Array(n);
  if (n === 0) return w;
  switch (weighting) {
    case 'equal':
      w.fill(1 / n);
      return w;
    case 'rank':
      // Linear in rank: the best of n gets n shares, the worst 1.
      for (let i = 0; i < n; i++) w[i] = n - i;
      return normalise(w);
    case 'market_cap':
      // An unknown or non-positive cap gets no weight; with no cap known at all, equal weights.
      for (let i = 0; i < n; i++) w[i] = inputs.marketCap[i] > 0 ? inputs.marketCap[i] : 0;
      return normalise(w);
    case 'inverse_volatility': {
      // Too little history (or zero volatility): the mean of the others' inverse volatilities.
      let sum = 0;
      let count = 0;
      for (let i = 0; i < n; i++) {
        const v = inputs.volatility[i];
        if (v > 0) {
          w[i] = 1 / v;
          sum += w[i];
          count++;
        } else w[i] = Number.NaN;
      }
      const fill = count > 0 ? sum / count : 1;
      for (let i = 0; i < n; i++) if (Number.isNaN(w[i])) w[i] = fill;
      return normalise(w);
    }
  }
}

function normalise(w: Float64Array): Float64Array {
  let sum = 0;
  for (let i = 0; i < w.length; i++) sum += w[i];
  if (!(sum > 0)) return w.fill(1 / w.length);
  for (let i = 0; i < w.length; i++) w[i] /= sum;
  return w;
}

/**
 * Caps every weight at `max`, handing the excess to the uncapped positions in proportion to their
 * weights, until none is above. When `max × n < 1` every position ends at `max`, the rest is cash.
 */
export function capWeights(w: Float64Array, max: number | null): Float64Array {
  if (max === null || w.length === 0) return w;
  const capped = new Uint8Array(w.length);
  for (let round = 0; round < w.length; round++) {
    let excess = 0;
    let free = 0;
    for (let i = 0; i < w.length; i++) {
      if (capped[i]) continue;
      if (w[i] > max) {
        excess += w[i] - max;
        w[i] = max;
        capped[i] = 1;
      } else free += w[i];
    }
    if (excess === 0) break;
    if (!(free > 0)) break;
    for (let i = 0; i < w.length; i++) if (!capped[i]) w[i] += (excess * w[i]) / free;
  }
  return w;
}

/**
 * Sample standard deviation of the daily returns over the last `window` exchange days ending at
 * exchange day `end` (an index into `exchange`). A day without a bar keeps the previous close
 * (return 0); days before the first bar have no price and give no return.
 */
export function trailingVolatility(days: Int32Array, tri: Float64Array, exchange: Int32Array, end: number, window: number): number {
  const from = Math.max(0, end - window);
  let b = -1;
  // The bar on or before the first exchange day of the window, then forward.
  for (let lo = 0, hi = days.length - 1; lo <= hi;) {
    const mid = (lo + hi) >> 1;
    if (days[mid] <= exchange[from]) {
      b = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const returns = new Float64Array(end - from);
  let n = 0;
  let prev = b >= 0 ? tri[b] : Number.NaN;
  for (let t = from + 1; t <= end; t++) {
    while (b + 1 < days.length && days[b + 1] <= exchange[t]) b++;
    const p = b >= 0 ? tri[b] : Number.NaN;
    if (!Number.isNaN(prev)) returns[n++] = p / prev - 1;
    prev = p;
  }
  if (n < 2) return Number.NaN;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += returns[i];
  mean /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = returns[i] - mean;
    ss += d * d;
  }
  return Math.sqrt(ss / (n - 1));
}
