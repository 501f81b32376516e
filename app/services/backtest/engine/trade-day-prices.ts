import { barAt, type AlignedPrices } from './aligned-prices';

// Every security's total-return index at the run's trade days, in batches of trade days. A
// rebalance of the equal-weighted universe needs one price of each of thousands of securities;
// read straight from the price panel, each is a cache and TLB miss. A batch is filled one
// security at a time instead, each reading its bars at the batch's trade days in one forward run,
// and a rebalance then reads its trade day's row: the same numbers, read sequentially.

/** Trade days per batch (a batch holds BATCH × securities prices). */
const BATCH = 64;

export class TradeDayPrices {
  private readonly rows: Float64Array;
  private batchStart = -1;

  constructor(
    private readonly prices: AlignedPrices,
    /** Calendar indices of the trade days, ascending. */
    readonly tradeDays: Int32Array,
  ) {
    this.rows = new Float64Array(Math.min(BATCH, tradeDays.length) * prices.count);
  }

  /** Each series' index value at the close of trade day k (NaN before its first bar). */
  row(k: number): Float64Array {
    if (this.batchStart < 0 || k < this.batchStart || k >= this.batchStart + BATCH) this.load(k);
    const n = this.prices.count;
    return this.rows.subarray((k - this.batchStart) * n, (k - this.batchStart + 1) * n);
  }

  /**
   * Series i's index value at the close of trade day k: `row(k)[i]`, read alone. A portfolio of a
   * few dozen names needs a few dozen prices per trade day, not a batch of the whole universe.
   */
  price(i: number, k: number): number {
    if (this.batchStart >= 0 && k >= this.batchStart && k < this.batchStart + BATCH)
      return this.rows[(k - this.batchStart) * this.prices.count + i];
    const c = barAt(this.prices, i, this.tradeDays[k]);
    return c < 0 ? Number.NaN : this.prices.tri[i][c];
  }

  private load(k0: number): void {
    const { prices, rows, tradeDays } = this;
    const n = prices.count;
    const m = Math.min(BATCH, tradeDays.length - k0);
    const { first, lastIn, offset, gaps } = prices;
    for (let i = 0; i < n; i++) {
      const tri = prices.tri[i];
      if (gaps[i] === null) {
        // Dense: the bar before the calendar, then one bar per day, then the last (as barAt).
        const f = first[i];
        const l = lastIn[i];
        const off = offset[i];
        for (let k = 0; k < m; k++) {
          const t = tradeDays[k0 + k];
          const c = off + (t < f ? f - 1 : t > l ? l : t);
          rows[k * n + i] = c < 0 ? Number.NaN : tri[c];
        }
      } else
        for (let k = 0; k < m; k++) {
          const c = barAt(prices, i, tradeDays[k0 + k]);
          rows[k * n + i] = c < 0 ? Number.NaN : tri[c];
        }
    }
    this.batchStart = k0;
  }
}
