import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import type { BacktestListItem, BacktestView } from './backtests.server';
import type { LoadedResult } from './stored-rows';

// Shapes of the backtest JSON API: snake_case records like the rest of the API. Parameters keep
// the engine's names (they are the stored contract: start, end, rebalance, topN, …).

export const BacktestCreateBody = z
  .object({
    screener_id: z.string().max(64).optional(),
    screen: z.unknown().optional(),
    name: z.string().max(1000).optional(),
    params: z.record(z.unknown()).default({}),
  })
  .strict()
  .refine((b) => (b.screener_id === undefined) !== (b.screen === undefined), {
    message: 'Give either screener_id or screen, not both',
    path: ['screener_id'],
  });

export const BacktestPatchBody = z.object({ shared: z.boolean().optional(), cancel: z.literal(true).optional() }).strict();

export function backtestListJson(b: BacktestListItem) {
  return {
    id: b.id,
    name: b.name,
    screener_id: b.screenerId,
    status: b.status,
    progress: b.progress,
    created_at: b.createdAt,
    params: b.params,
    summary: b.summary,
  };
}

export async function backtestJson(b: BacktestView) {
  return {
    ...backtestListJson(b),
    message: b.message,
    error: b.error,
    finished_at: b.finishedAt,
    screen: b.screen,
    snapshot_id: b.snapshotId,
    engine_version: b.engineVersion,
    share_token: b.shareToken,
    result: b.result ? await resultJson(b.result) : null,
  };
}

/**
 * Holding and trade rows one answer carries at most: a daily backtest of hundreds of names has
 * millions. Past it, the trade log is cut after its first rows and later rebalances list no
 * holdings (`holdings: null`); `trades_total` and each rebalance's `holding_count` give the full
 * sizes, and the CSV downloads (/backtest/csv) hold every row.
 */
export const API_RESULT_ROWS = 20_000;

/** Rows built between two turns of the event loop (other requests are answered in between). */
const YIELD_ROWS = 2_000;

/** The result as the API shows it: the light part, and only the stored parts its first rows need. */
async function resultJson(r: LoadedResult) {
  let budget = API_RESULT_ROWS;
  let sinceYield = 0;
  const { rebalances: summaries, ...plain } = r.light;
  const rebalances = [];
  for (const [i, b] of summaries.entries()) {
    const n = r.rows.holdingCounts[i];
    const { signalDate, tradeDate, universeCount, passCount, valueBefore, tradedValue, cost } = b;
    const row = { signalDate, tradeDate, universeCount, passCount, valueBefore, tradedValue, cost, holding_count: n };
    if (n > budget) {
      rebalances.push({ ...row, holdings: null });
      continue;
    }
    budget -= n;
    rebalances.push({ ...row, holdings: await r.rows.holdingsOf(i) });
    sinceYield += n;
    if (sinceYield >= YIELD_ROWS) {
      sinceYield = 0;
      await nextTurn();
    }
  }
  const total = r.rows.tradeCount;
  // The trade log gets what the holdings left, and at least half the rows.
  const shown = Math.min(total, Math.max(budget, API_RESULT_ROWS / 2));
  const trades = [];
  for (let from = 0; from < shown; from += YIELD_ROWS) {
    trades.push(...(await r.rows.tradeSlice(from, Math.min(shown, from + YIELD_ROWS))));
    await nextTurn();
  }
  return {
    ...plain,
    rebalances,
    trades,
    trades_total: total,
    truncated: shown < total || rebalances.some((b) => b.holdings === null),
  };
}
