import { barAt, type AlignedPrices } from './aligned-prices';
import { investableAmount } from './trade-sizing';
import type { TradeDayPrices } from './trade-day-prices';
import type { Trade } from './types';
import { Valuation } from './valuation';

// A portfolio through time: cash plus positions held as units of each security's total-return
// index (so dividends are reinvested and splits cancel out). Securities are addressed by their
// index in the run's series list, which is sorted by permaticker; held positions are kept in that
// order, so every sum runs in the same order whatever produced the targets (bit-identical runs).
// State lives in dense typed arrays: the equal-weighted universe holds thousands of positions.
// Days are calendar indices; a position's current bar comes from the aligned prices (no cursors).

export type Costs = { rate: number; fixed: number };

/** The run's trades in the order they happen, labelled with their date and ticker. */
export class TradeLog {
  readonly trades: Trade[] = [];

  constructor(
    private readonly dates: readonly string[],
    /** By series index. */
    private readonly tickers: readonly string[],
    private readonly permatickers: Int32Array,
  ) {}

  add(t: number, i: number, side: Trade['side'], reason: Trade['reason'], value: number, price: number, cost: number): void {
    this.trades.push({
      permaticker: this.permatickers[i],
      side,
      reason,
      value,
      price,
      shares: value / price,
      cost,
      date: this.dates[t],
      ticker: this.tickers[i],
    });
  }
}

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
  /** Scratch: each union member's bar during a rebalance (held ones only when trades are logged). */
  private readonly bar: Int32Array;
  private readonly currentScratch: Float64Array;
  private readonly weightScratch: Float64Array;
  /** Scratch: the union's prices on a trade day read price by price. */
  private readonly priceScratch: Float64Array;

  private readonly valuation: Valuation;

  /** @param out the value curve, one entry per calendar day, complete after `finish()` */
  constructor(
    private readonly prices: AlignedPrices,
    private readonly tradePrices: TradeDayPrices,
    initialCapital: number,
    private readonly out: Float64Array,
  ) {
    this.cash = initialCapital;
    this.valuation = new Valuation(prices, out);
    const n = prices.count;
    this.units = new Float64Array(n);
    this.held = new Int32Array(n);
    this.wanted = new Float64Array(n);
    this.inUnion = new Uint8Array(n);
    this.unionScratch = new Int32Array(n);
    this.fresh = new Int32Array(n);
    this.bar = new Int32Array(n);
    this.currentScratch = new Float64Array(n);
    this.weightScratch = new Float64Array(n);
    this.priceScratch = new Float64Array(n);
  }

  /**
   * Holds the positions through the closes of calendar days a..b (any trades at a's close already
   * done), turning delisted holdings into cash on their last day; the curve gets each day's cash
   * now and the positions' value when the valuation flushes (`finish`). Returns how many
   * positions were closed by delistings.
   */
  closeRange(a: number, b: number, log: TradeLog | null): number {
    const { held, units, prices, valuation } = this;
    const { tri: triOf, settle, last: lastBar } = prices;
    const len = b - a + 1;
    const proceedsAt = new Float64Array(len);
    const events: { t: number; i: number; value: number }[] = [];
    valuation.hold(held, this.heldCount, units, settle, a, b);
    let kept = 0;
    for (let k = 0; k < this.heldCount; k++) {
      const i = held[k];
      if (settle[i] > b) {
        held[kept++] = i;
        continue;
      }
      const settledAt = Math.max(a, settle[i]);
      const value = units[i] * triOf[i][lastBar[i]];
      proceedsAt[settledAt - a] += value;
      units[i] = 0;
      events.push({ t: settledAt, i, value });
    }
    this.heldCount = kept;
    let cash = this.cash;
    for (let t = 0; t < len; t++) {
      cash += proceedsAt[t];
      this.out[a + t] = cash;
    }
    this.cash = cash;
    valuation.cover(a, b);
    valuation.maybeFlush();
    if (log) {
      events.sort((x, y) => x.t - y.t || x.i - y.i);
      for (const e of events) log.add(e.t, e.i, 'sell', 'delisted', e.value, prices.close[e.i][lastBar[e.i]], 0);
    }
    return events.length;
  }

  /** Values every recorded day: the curve is complete after this. */
  finish(): void {
    this.valuation.flush();
  }

  /** Cash plus every position at the close of trade day k. */
  value(k: number): number {
    const { held, units, tradePrices } = this;
    let sum = 0;
    if (this.readsWholeRows(this.heldCount)) {
      const px = tradePrices.row(k);
      for (let j = 0; j < this.heldCount; j++) sum += units[held[j]] * px[held[j]];
    } else for (let j = 0; j < this.heldCount; j++) sum += units[held[j]] * tradePrices.price(held[j], k);
    return this.cash + sum;
  }

  /**
   * Whether a trade day touching `securities` positions reads the whole row of prices (the
   * equal-weighted universe: thousands of them, read in batches) or each price alone (a
   * portfolio: a few dozen of hundreds). Either gives the same numbers.
   */
  private readsWholeRows(securities: number): boolean {
    return securities * 8 > this.prices.count;
  }

  /**
   * Trades to the targets (series indices and weights) at the close of trade day `trade`.
   * Targets that cannot trade (no bar yet, or delisted before that day) stay cash. Returns the
   * traded value and costs.
   */
  rebalance(
    trade: number,
    targets: Int32Array,
    weights: Float64Array,
    costs: Costs,
    log: TradeLog | null,
  ): { tradedValue: number; cost: number } {
    const { prices, wanted, inUnion, units, bar } = this;
    const { close: closeOf, delisted, lastDay } = prices;
    const t = this.tradePrices.tradeDays[trade];
    const day = prices.calendar[t];
    const { held: heldList, heldCount, fresh, tradePrices } = this;
    // The whole row, or the union's prices alone in a scratch indexed like it (see readsWholeRows).
    const whole = this.readsWholeRows(heldCount + targets.length);
    const px = whole ? tradePrices.row(trade) : this.priceScratch;
    let sum = 0;
    for (let k = 0; k < heldCount; k++) {
      const i = heldList[k];
      inUnion[i] = 1;
      if (log) bar[i] = barAt(prices, i, t);
      if (!whole) px[i] = tradePrices.price(i, trade);
      sum += units[i] * px[i];
    }
    const value = this.cash + sum;
    let f = 0;
    let ascending = true;
    for (let k = 0; k < targets.length; k++) {
      const i = targets[k];
      if (!(weights[k] > 0)) continue;
      if (!inUnion[i]) {
        const c = barAt(prices, i, t);
        if (c < 0 || (delisted[i] === 1 && lastDay[i] < day)) continue;
        bar[i] = c;
        if (!whole) px[i] = tradePrices.price(i, trade);
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
    for (let x = 0, y = 0; x < heldCount || y < f;)
      order[n++] = y >= f || (x < heldCount && heldList[x] < fresh[y]) ? heldList[x++] : fresh[y++];
    const current = this.currentScratch.subarray(0, n);
    const w = this.weightScratch.subarray(0, n);
    let trades = 0;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      current[k] = units[i] * px[i];
      w[k] = wanted[i];
      if (current[k] !== 0 || w[k] !== 0) trades++;
    }
    const invested = investableAmount(value, current, w, costs.rate, costs.fixed * trades);
    let tradedValue = 0;
    let cost = 0;
    let held = 0;
    let count = 0;
    // Sells are logged before buys (they pay for them); each side in permaticker order.
    /** Buys wait for the sells: (union position, traded value, cost) triples. */
    const buys: number[] = [];
    for (let k = 0; k < n; k++) {
      const i = order[k];
      const target = w[k] * invested;
      const delta = target - current[k];
      if (delta !== 0) {
        const traded = Math.abs(delta);
        const tradeCost = traded * costs.rate + costs.fixed;
        tradedValue += traded;
        cost += tradeCost;
        if (log) {
          if (delta > 0) buys.push(k, traded, tradeCost);
          else log.add(t, i, 'sell', 'rebalance', traded, closeOf[i][bar[i]], tradeCost);
        }
      }
      wanted[i] = 0;
      inUnion[i] = 0;
      if (target > 0) {
        units[i] = target / px[i];
        this.held[count++] = i;
        held += target;
      } else units[i] = 0;
    }
    if (log)
      for (let x = 0; x < buys.length; x += 3) {
        const i = order[buys[x]];
        log.add(t, i, 'buy', 'rebalance', buys[x + 1], closeOf[i][bar[i]], buys[x + 2]);
      }
    this.heldCount = count;
    this.cash = value - held - cost;
    return { tradedValue, cost };
  }
}
