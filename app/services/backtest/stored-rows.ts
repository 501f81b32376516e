import type { Holding, Rebalancing, Trade } from './engine/types';
import type { StoredResult } from './stored-result';

// Reading a stored result's long lists without turning them all into rows. A result read for a
// page, the API or a download is a LoadedResult: its light part (everything but the holdings and
// trade rows) and async accessors of those rows, which read only the stored parts they need
// (stored-result.ts). A result decoded whole (formats 1 to 3) carries the sync accessors below.
// No Node APIs here, so pages' shared helpers can use it.

/** A stored result without its holdings and trade rows (each rebalance without its holdings). */
export type StoredLight = Omit<StoredResult, 'rebalances' | 'trades'> & { rebalances: Omit<Rebalancing, 'holdings'>[] };

export type PartKind = 'holdings' | 'trades';

/** The holdings and trade rows of a stored result, read on demand. */
export type ResultRows = {
  /** How many names each rebalance holds. */
  holdingCounts: readonly number[];
  tradeCount: number;
  /** The metrics the holdings carry, in the order they first appear. */
  holdingMetrics(): string[];
  /** The holdings of rebalance i (0-based); none for an i out of range. */
  holdingsOf(i: number): Promise<Holding[]>;
  /** Trades [from, to) of the log. */
  tradeSlice(from: number, to: number): Promise<Trade[]>;
};

export type LoadedResult = { light: StoredLight; rows: ResultRows; toJSON(): unknown };

export type TradeRows = { count: number; at(i: number): Trade };
export const TRADE_ROWS = Symbol('tradeRows');
export const HOLDING_COUNTS = Symbol('holdingCounts');

/** The number of trades, without turning the log into rows. */
export function tradeCount(r: StoredResult): number {
  const rows = (r as { [TRADE_ROWS]?: TradeRows })[TRADE_ROWS];
  return rows ? rows.count : r.trades.length;
}

/** Trades [from, to) of the log, reading only those rows. */
export function tradeSlice(r: StoredResult, from: number, to: number): Trade[] {
  const rows = (r as { [TRADE_ROWS]?: TradeRows })[TRADE_ROWS];
  if (!rows) return r.trades.slice(from, to);
  const out: Trade[] = [];
  for (let i = Math.max(0, from); i < Math.min(to, rows.count); i++) out.push(rows.at(i));
  return out;
}

/** How many names rebalance i holds, without turning its holdings into rows. */
export function holdingCount(r: StoredResult, i: number): number {
  const counts = (r as { [HOLDING_COUNTS]?: Int32Array })[HOLDING_COUNTS];
  return counts ? counts[i] : r.rebalances[i].holdings.length;
}
