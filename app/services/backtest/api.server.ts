import { z } from 'zod';
import type { BacktestListItem, BacktestView } from './backtests.server';

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

export function backtestJson(b: BacktestView) {
  return {
    ...backtestListJson(b),
    message: b.message,
    error: b.error,
    finished_at: b.finishedAt,
    screen: b.screen,
    snapshot_id: b.snapshotId,
    engine_version: b.engineVersion,
    share_token: b.shareToken,
    result: b.result,
  };
}
