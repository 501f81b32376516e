import { barAt, type AlignedPrices } from './aligned-prices';
import { investableAmount } from './trade-sizing';
import type { Trade } from './types';

// A portfolio through time: cash plus positions held as units of each security's total-return
// index (so dividends are reinvested and splits cancel out). Securities are addressed by their
// index in the run's series list, which is sorted by permaticker; held positions are kept in that
// order, so every sum runs in the same order whatever produced the targets (bit-identical runs).
// State lives in dense typed arrays: the equal-weighted universe holds thousands of positions.
// Days are calendar indices; a position's current bar comes from the aligned prices (no cursors).

export type Costs = { rate: number; fixed: number };

export type TradeSink = (t: Omit<Trade, 'date' | 'ticker'>) => void;

export class Book {
  cash: number;
  private readonly units: Float64Array;
  /** Held series indices, ascending. */
  private readonly held: Int32Array;
  private heldCount = 0;
  /** Scratch, all zero between calls. */
  private readonly wanted: Float64Array;
  private readonly inUnion: Uint8Array;
  private readonly unionScratch: Int32Array;
  private readonly fresh: Int32Array;
  /** Scratch: each union member's bar during a rebalance. */
  private readonly bar: Int32Array;

  constructor(
    private readonly prices: AlignedPrices,
    initialCapital: number,
  ) {
    this.cash = initialCapital;
    const n = prices.count;
    this.units = new Float64Array(n);
    this.held = new Int32Array(n);
    this.wanted = new Float64Array(n);
    this.inUnion = new Uint8Array(n);
    this.unionScratch = new Int32Array(n);
    this.fresh = new Int32Array(n);
    this.bar = new Int32Array(n);
  }

  /**
   * Values the book at every close of calendar days a..b (any trades at a's close already done),
   * turning delisted holdings into cash on their last day. Holdings do not change inside the
   * range, so each security's bars are walked in one sequential run (cache-friendly: the
   * equal-weighted universe holds thousands); per day the positions are still summed in
   * permaticker order. Returns how many positions were closed by delistings.
   */
  closeRange(a: number, b: number, out: Float64Array, sink: ((t: number, trade: Omit<Trade, 'date' | 'ticker'>) => void) | null): number {
    const { held, units, prices } = this;
    const { tri: triOf, first, lastIn, offset, gaps, settle, last: lastBar } = prices;
    const len = b - a + 1;
    const acc = new Float64Array(len);
    const proceedsAt = new Float64Array(len);
    const events: { t: number; i: number; value: number }[] = [];
    let kept = 0;
    for (let k = 0; k < this.heldCount; k++) {
      const i = held[k];
      const tri = triOf[i];
      const u = units[i];
      const settledAt = settle[i] <= b ? Math.max(a, settle[i]) : -1;
      const stop = settledAt < 0 ? b : settledAt - 1;
      const g = gaps[i];
      if (g === null) {
        // Dense: before the first bar the bar before the calendar, then one bar per day, then the last.
        const f = first[i];
        const l = lastIn[i];
        const off = offset[i];
        let t = a;
        if (t < f && t <= stop) {
          const v = u * tri[off + f - 1];
          for (; t < f && t <= stop; t++) acc[t - a] += v;
        }
        const e = l < stop ? l : stop;
        for (; t <= e; t++) acc[t - a] += u * tri[off + t];
        if (t <= stop) {
          const v = u * tri[off + l];
          for (; t <= stop; t++) acc[t - a] += v;
        }
      } else if (a <= stop) {
        const f = first[i];
        const l = lastIn[i];
        let c = barAt(prices, i, a);
        let gp = 0;
        while (gp < g.length && g[gp] <= a) gp++;
        acc[0] += u * tri[c];
        for (let t = a + 1; t <= stop; t++) {
          if (t >= f && t <= l) {
            if (gp < g.length && g[gp] === t) gp++;
            else c++;
          }
          acc[t - a] += u * tri[c];
        }
      }
      if (settledAt < 0) held[kept++] = i;
      else {
        const value = u * tri[lastBar[i]];
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
        const close = prices.close[e.i][lastBar[e.i]];
        sink(e.t, { permaticker: prices.permaticker[e.i], side: 'sell', reason: 'delisted', value: e.value, price: close, shares: e.value / close, cost: 0 });
      }
    }
    return events.length;
  }

  /** Cash plus every position at the close of calendar day t. */
  value(t: number): number {
    const { held, units, prices } = this;
    const triOf = prices.tri;
    let sum = 0;
    for (let k = 0; k < this.heldCount; k++) {
      const i = held[k];
      sum += units[i] * triOf[i][barAt(prices, i, t)];
    }
    return this.cash + sum;
  }

  /**
   * Trades to the targets (series indices and weights) at the close of calendar day t. Targets
   * that cannot trade (no bar yet, or delisted before t) stay cash. Returns the traded value and
   * costs.
   */
  rebalance(t: number, targets: Int32Array, weights: Float64Array, costs: Costs, sink: TradeSink | null): { tradedValue: number; cost: number } {
    const { prices, wanted, inUnion, units, bar } = this;
    const { tri: triOf, close: closeOf, days: daysOf, delisted, last } = prices;
    const day = prices.calendar[t];
    const value = this.value(t);
    const { held: heldList, heldCount, fresh } = this;
    for (let k = 0; k < heldCount; k++) {
      const i = heldList[k];
      inUnion[i] = 1;
      bar[i] = barAt(prices, i, t);
    }
    let f = 0;
    let ascending = true;
    for (let k = 0; k < targets.length; k++) {
      const i = targets[k];
      if (!(weights[k] > 0)) continue;
      if (!inUnion[i]) {
        const c = barAt(prices, i, t);
        if (c < 0 || (delisted[i] === 1 && daysOf[i][last[i]] < day)) continue;
        bar[i] = c;
        units[i] = 0;
        inUnion[i] = 1;
        if (f > 0 && i < fresh[f - 1]) ascending = false;
        fresh[f++] = i;
      }
      wanted[i] += weights[k];
    }
    // Held and new positions in series order: a merge (the universe's targets come ascending,
    // a portfolio's few new ones are sorted first).
    if (!ascending) fresh.subarray(0, f).sort();
    const order = this.unionScratch;
    let n = 0;
    for (let x = 0, y = 0; x < heldCount || y < f; ) order[n++] = y >= f || (x < heldCount && heldList[x] < fresh[y]) ? heldList[x++] : fresh[y++];
    const current = new Float64Array(n);
    const w = new Float64Array(n);
    let trades = 0;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      current[k] = units[i] * triOf[i][bar[i]];
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
      const c = bar[i];
      const target = w[k] * invested;
      const delta = target - current[k];
      if (delta !== 0) {
        const traded = Math.abs(delta);
        const tradeCost = traded * costs.rate + costs.fixed;
        tradedValue += traded;
        cost += tradeCost;
        if (sink) {
          const price = closeOf[i][c];
          const trade = { permaticker: prices.permaticker[i], side: delta > 0 ? ('buy' as const) : ('sell' as const), reason: 'rebalance' as const, value: traded, price, shares: traded / price, cost: tradeCost };
          if (delta > 0) buys.push(trade);
          else sink(trade);
        }
      }
      wanted[i] = 0;
      inUnion[i] = 0;
      if (target > 0) {
        units[i] = target / triOf[i][c];
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
