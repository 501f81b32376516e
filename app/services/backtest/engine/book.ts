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
  private readonly unionScratch: Int32Array;
  /** Per series, in parallel arrays (monomorphic hot loops). */
  private readonly daysOf: Int32Array[];
  private readonly triOf: Float64Array[];
  private readonly lastBar: Int32Array;
  private readonly delisted: Uint8Array;

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
    this.unionScratch = new Int32Array(n);
    this.daysOf = series.map((x) => x.days);
    this.triOf = series.map((x) => x.tri);
    this.lastBar = Int32Array.from(series, (x) => x.days.length - 1);
    this.delisted = Uint8Array.from(series, (x) => (x.delisted ? 1 : 0));
  }

  /**
   * Values the book at every close of calendar[a..b] (any trades at a's close already done),
   * turning delisted holdings into cash on their last day. Holdings do not change inside the
   * range, so each security's bars are walked in one sequential run (cache-friendly: the
   * equal-weighted universe holds thousands); per day the positions are still summed in
   * permaticker order. Returns how many positions were closed by delistings.
   */
  closeRange(calendar: Int32Array, a: number, b: number, out: Float64Array, sink: ((t: number, trade: Omit<Trade, 'date' | 'ticker'>) => void) | null): number {
    const { held, cursor, units, daysOf, triOf, lastBar, delisted } = this;
    const len = b - a + 1;
    const acc = new Float64Array(len);
    const proceedsAt = new Float64Array(len);
    const events: { t: number; i: number; value: number }[] = [];
    let kept = 0;
    for (let k = 0; k < this.heldCount; k++) {
      const i = held[k];
      const days = daysOf[i];
      const tri = triOf[i];
      const last = lastBar[i];
      const u = units[i];
      const gone = delisted[i] === 1;
      let c = cursor[i];
      let settledAt = -1;
      for (let t = a; t <= b; t++) {
        const day = calendar[t];
        while (c < last && days[c + 1] <= day) c++;
        if (gone && c === last && days[last] <= day) {
          settledAt = t;
          break;
        }
        acc[t - a] += u * tri[c];
      }
      cursor[i] = c;
      if (settledAt < 0) held[kept++] = i;
      else {
        const value = u * tri[last];
        proceedsAt[settledAt - a] += value;
        units[i] = 0;
        events.push({ t: settledAt, i, value });
      }
    }
    this.heldCount = kept;
    let cash = this.cash;
    for (let t = 0; t < len; t++) {
      cash += proceedsAt[t];
      out[a + t] = cash + acc[t];
    }
    this.cash = cash;
    if (sink) {
      events.sort((x, y) => x.t - y.t || x.i - y.i);
      for (const e of events) {
        const s = this.series[e.i];
        const last = lastBar[e.i];
        sink(e.t, { permaticker: s.permaticker, side: 'sell', reason: 'delisted', value: e.value, price: s.close[last], shares: e.value / s.close[last], cost: 0 });
      }
    }
    return events.length;
  }

  /** Moves every position's cursor to its last bar on or before `day`. */
  advance(day: number): void {
    const { held, cursor, daysOf, lastBar } = this;
    for (let k = 0; k < this.heldCount; k++) {
      const i = held[k];
      const days = daysOf[i];
      const last = lastBar[i];
      let c = cursor[i];
      while (c < last && days[c + 1] <= day) c++;
      cursor[i] = c;
    }
  }

  value(): number {
    const { held, cursor, units, triOf } = this;
    let sum = 0;
    for (let k = 0; k < this.heldCount; k++) {
      const i = held[k];
      sum += units[i] * triOf[i][cursor[i]];
    }
    return this.cash + sum;
  }

  /**
   * Trades to the targets (series indices and weights) at the close of `day`. Targets that cannot
   * trade (no bar yet, or delisted before `day`) stay cash. Returns the traded value and costs.
   */
  rebalance(day: number, targets: Int32Array, weights: Float64Array, costs: Costs, sink: TradeSink | null): { tradedValue: number; cost: number } {
    const { series, wanted, inUnion, units, cursor } = this;
    const value = this.value();
    const union = this.unionScratch;
    let u = 0;
    for (let k = 0; k < this.heldCount; k++) {
      inUnion[this.held[k]] = 1;
      union[u++] = this.held[k];
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
        union[u++] = i;
      }
      wanted[i] += weights[k];
    }
    const order = union.subarray(0, u).sort();
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
