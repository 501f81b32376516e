import { barAtOrBefore } from './calendar';
import { investableAmount } from './trade-sizing';
import type { PriceSeries, Trade } from './types';

// A portfolio through time: cash plus positions held as units of each security's total-return
// index (so dividends are reinvested and splits cancel out). Positions are kept in permaticker
// order, so every sum runs in the same order whatever produced the targets: bit-identical runs.

type Position = { series: PriceSeries; units: number; cursor: number };

export type Target = { series: PriceSeries; weight: number };

export type Costs = { rate: number; fixed: number };

export type TradeSink = (t: Omit<Trade, 'date' | 'ticker'>) => void;

export class Book {
  cash: number;
  positions: Position[] = [];

  constructor(initialCapital: number) {
    this.cash = initialCapital;
  }

  /** Moves every position's cursor to its last bar on or before `day`. */
  advance(day: number): void {
    for (const p of this.positions) {
      const days = p.series.days;
      while (p.cursor + 1 < days.length && days[p.cursor + 1] <= day) p.cursor++;
    }
  }

  value(): number {
    let v = this.cash;
    for (const p of this.positions) v += p.units * p.series.tri[p.cursor];
    return v;
  }

  /**
   * Delisted securities whose last bar is on or before `day` become cash at their last value.
   * Returns how many positions were closed.
   */
  settleDelistings(day: number, sink: TradeSink | null): number {
    let closed = 0;
    const kept: Position[] = [];
    for (const p of this.positions) {
      const s = p.series;
      const last = s.days.length - 1;
      if (s.delisted && p.cursor === last && s.days[last] <= day) {
        const value = p.units * s.tri[last];
        this.cash += value;
        closed++;
        sink?.({ permaticker: s.permaticker, side: 'sell', reason: 'delisted', value, price: s.close[last], shares: value / s.close[last], cost: 0 });
      } else kept.push(p);
    }
    this.positions = kept;
    return closed;
  }

  /**
   * Trades to the targets at the close of `day`: targets that cannot trade (no bar yet, or
   * delisted before `day`) stay cash. Returns the traded value and the costs paid.
   */
  rebalance(day: number, targets: readonly Target[], costs: Costs, sink: TradeSink | null): { tradedValue: number; cost: number } {
    const tradable = targets.filter((t) => {
      const i = barAtOrBefore(t.series.days, day);
      return i >= 0 && !(t.series.delisted && t.series.days[t.series.days.length - 1] < day) && t.weight > 0;
    });
    // Union of held and wanted securities, in permaticker order.
    const byPerm = new Map<number, { series: PriceSeries; held: Position | null; weight: number }>();
    for (const p of this.positions) byPerm.set(p.series.permaticker, { series: p.series, held: p, weight: 0 });
    for (const t of tradable) {
      const e = byPerm.get(t.series.permaticker);
      if (e) e.weight += t.weight;
      else byPerm.set(t.series.permaticker, { series: t.series, held: null, weight: t.weight });
    }
    const entries = [...byPerm.values()].sort((a, b) => a.series.permaticker - b.series.permaticker);
    const n = entries.length;
    const current = new Float64Array(n);
    const weights = new Float64Array(n);
    const cursors = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const e = entries[i];
      cursors[i] = e.held ? e.held.cursor : barAtOrBefore(e.series.days, day);
      current[i] = e.held ? e.held.units * e.series.tri[cursors[i]] : 0;
      weights[i] = e.weight;
    }
    const value = this.value();
    let trades = 0;
    for (let i = 0; i < n; i++) if (current[i] !== 0 || weights[i] !== 0) trades++;
    const invested = investableAmount(value, current, weights, costs.rate, costs.fixed * trades);
    let tradedValue = 0;
    let cost = 0;
    let held = 0;
    const positions: Position[] = [];
    // Sells are logged before buys (they pay for them); each side in permaticker order.
    const buys: Parameters<TradeSink>[0][] = [];
    for (let i = 0; i < n; i++) {
      const s = entries[i].series;
      const c = cursors[i];
      const target = weights[i] * invested;
      const delta = target - current[i];
      if (delta !== 0) {
        const traded = Math.abs(delta);
        const tradeCost = traded * costs.rate + costs.fixed;
        tradedValue += traded;
        cost += tradeCost;
        const trade = { permaticker: s.permaticker, side: delta > 0 ? ('buy' as const) : ('sell' as const), reason: 'rebalance' as const, value: traded, price: s.close[c], shares: traded / s.close[c], cost: tradeCost };
        if (delta > 0) buys.push(trade);
        else sink?.(trade);
      }
      if (target > 0) {
        positions.push({ series: s, units: target / s.tri[c], cursor: c });
        held += target;
      }
    }
    if (sink) for (const b of buys) sink(b);
    this.positions = positions;
    this.cash = value - held - cost;
    return { tradedValue, cost };
  }
}
