import { barAtOrBefore } from './calendar';
import { investableAmount } from './trade-sizing';
import type { PriceSeries, Trade } from './types';

// A portfolio through time: cash plus positions held as units of each security's total-return
// index (so dividends are reinvested and splits cancel out). Securities are addressed by their
// index in the run's series list, which is sorted by permaticker; held positions are kept in that
// order, so every sum runs in the same order whatever produced the targets (bit-identical runs).
// State lives in dense typed arrays: the equal-weighted universe holds thousands of positions.

export type Costs = { rate: number; fixed: number };

export type TradeSink = (t: Omit<Trade, 'date' | 'ticker'>) => void;

export class Book {
  cash: number;
  private readonly units: Float64Array;
  private readonly cursor: Int32Array;
  /** Held series indices, ascending. */
  private held: Int32Array;
  private heldCount = 0;
  /** Scratch, all zero between calls. */
  private readonly wanted: Float64Array;
  private readonly inUnion: Uint8Array;

  constructor(
    private readonly series: readonly PriceSeries[],
    initialCapital: number,
  ) {
    this.cash = initialCapital;
    const n = series.length;
    this.units = new Float64Array(n);
    this.cursor = new Int32Array(n);
    this.held = new Int32Array(n);
    this.wanted = new Float64Array(n);
    this.inUnion = new Uint8Array(n);
  }

  /** Moves every position's cursor to its last bar on or before `day`. */
  advance(day: number): void {
    for (let k = 0; k < this.heldCount; k++) {
      const i = this.held[k];
      const days = this.series[i].days;
      let c = this.cursor[i];
      while (c + 1 < days.length && days[c + 1] <= day) c++;
      this.cursor[i] = c;
    }
  }

  value(): number {
    let v = this.cash;
    for (let k = 0; k < this.heldCount; k++) {
      const i = this.held[k];
      v += this.units[i] * this.series[i].tri[this.cursor[i]];
    }
    return v;
  }

  /**
   * Delisted securities whose last bar is on or before `day` become cash at their last value.
   * Returns how many positions were closed.
   */
  settleDelistings(day: number, sink: TradeSink | null): number {
    let closed = 0;
    let kept = 0;
    for (let k = 0; k < this.heldCount; k++) {
      const i = this.held[k];
      const s = this.series[i];
      const last = s.days.length - 1;
      if (s.delisted && this.cursor[i] === last && s.days[last] <= day) {
        const value = this.units[i] * s.tri[last];
        this.cash += value;
        this.units[i] = 0;
        closed++;
        sink?.({ permaticker: s.permaticker, side: 'sell', reason: 'delisted', value, price: s.close[last], shares: value / s.close[last], cost: 0 });
      } else this.held[kept++] = i;
    }
    this.heldCount = kept;
    return closed;
  }

  /**
   * Trades to the targets (series indices and weights) at the close of `day`. Targets that cannot
   * trade (no bar yet, or delisted before `day`) stay cash. Returns the traded value and costs.
   */
  rebalance(day: number, targets: Int32Array, weights: Float64Array, costs: Costs, sink: TradeSink | null): { tradedValue: number; cost: number } {
    const { series, wanted, inUnion, units, cursor } = this;
    const value = this.value();
    const union: number[] = [];
    for (let k = 0; k < this.heldCount; k++) {
      inUnion[this.held[k]] = 1;
      union.push(this.held[k]);
    }
    for (let k = 0; k < targets.length; k++) {
      const i = targets[k];
      const s = series[i];
      if (!(weights[k] > 0)) continue;
      if (!inUnion[i]) {
        const c = barAtOrBefore(s.days, day);
        if (c < 0 || (s.delisted && s.days[s.days.length - 1] < day)) continue;
        cursor[i] = c;
        units[i] = 0;
        inUnion[i] = 1;
        union.push(i);
      }
      wanted[i] += weights[k];
    }
    const order = Int32Array.from(union).sort();
    const n = order.length;
    const current = new Float64Array(n);
    const w = new Float64Array(n);
    let trades = 0;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      current[k] = units[i] * series[i].tri[cursor[i]];
      w[k] = wanted[i];
      if (current[k] !== 0 || w[k] !== 0) trades++;
    }
    const invested = investableAmount(value, current, w, costs.rate, costs.fixed * trades);
    let tradedValue = 0;
    let cost = 0;
    let held = 0;
    let count = 0;
    // Sells are logged before buys (they pay for them); each side in permaticker order.
    const buys: Parameters<TradeSink>[0][] = [];
    for (let k = 0; k < n; k++) {
      const i = order[k];
      const s = series[i];
      const c = cursor[i];
      const target = w[k] * invested;
      const delta = target - current[k];
      if (delta !== 0) {
        const traded = Math.abs(delta);
        const tradeCost = traded * costs.rate + costs.fixed;
        tradedValue += traded;
        cost += tradeCost;
        if (sink) {
          const trade = { permaticker: s.permaticker, side: delta > 0 ? ('buy' as const) : ('sell' as const), reason: 'rebalance' as const, value: traded, price: s.close[c], shares: traded / s.close[c], cost: tradeCost };
          if (delta > 0) buys.push(trade);
          else sink(trade);
        }
      }
      wanted[i] = 0;
      inUnion[i] = 0;
      if (target > 0) {
        units[i] = target / s.tri[c];
        this.held[count++] = i;
        held += target;
      } else units[i] = 0;
    }
    if (sink) for (const b of buys) sink(b);
    this.heldCount = count;
    this.cash = value - held - cost;
    return { tradedValue, cost };
  }
}
