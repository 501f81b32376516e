import type { Trade } from './engine/types';
import type { StoredResult } from './stored-result';

// Reading a stored result's long lists without turning them all into rows: a result decoded from
// the columnar format (stored-result.ts) carries these accessors; an older one is read as is.
// No Node APIs here, so pages' shared helpers can use it.

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
