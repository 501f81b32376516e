import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import { compressedForRequest } from '../http/answer-compression.server';
import { jsonResponseInTurns, zodFieldErrors } from '../http/api.server';
import { conflict, notFound, unprocessable } from '../http/errors';
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
 * The backtest's answer to a request that waited for its run, compressed for the client as it is
 * prepared: a waiting request prepares it while the run's result is being stored, so compressing
 * it then (about a millisecond for a five-year monthly result) is off the path of the answer.
 */
export async function waitedBacktestAnswer(request: Request, b: BacktestView, init: ResponseInit = {}): Promise<Response> {
  return compressedForRequest(request, await jsonResponseInTurns(await backtestJson(b), init));
}

/** The result as the API shows it: everything but the holding and trade rows, which have their own pages. */
function resultJson(r: LoadedResult) {
  const { rebalances, ...plain } = r.light;
  return {
    ...plain,
    rebalances: rebalances.map((b, i) => rebalanceRow(b, r.rows.holdingCounts[i])),
    holdings_total: r.rows.holdingCounts.reduce((n, c) => n + c, 0),
    trades_total: r.rows.tradeCount,
  };
}

function rebalanceRow(b: LoadedResult['light']['rebalances'][number], holdingCount: number) {
  const { signalDate, tradeDate, universeCount, passCount, valueBefore, tradedValue, cost } = b;
  return { signalDate, tradeDate, universeCount, passCount, valueBefore, tradedValue, cost, holding_count: holdingCount };
}

/** Rows one page of `GET /api/v1/backtests/{id}/trades` or `…/holdings` holds at most, and by default. */
export const MAX_ROWS_PAGE = 10_000;
export const DEFAULT_ROWS_PAGE = 1_000;

/** A query parameter left empty (`?offset=&limit=`) counts as absent. */
const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);

export const RowsPageQuery = z.object({
  offset: z.preprocess(
    emptyAsAbsent,
    z.coerce
      .number({ message: 'offset must be a number' })
      .int('offset must be a whole number')
      .min(0, 'offset must be 0 or more')
      .max(2 ** 31 - 1)
      .default(0),
  ),
  limit: z.preprocess(
    emptyAsAbsent,
    z.coerce
      .number({ message: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(MAX_ROWS_PAGE, `limit is at most ${MAX_ROWS_PAGE.toLocaleString('en-US')}`)
      .default(DEFAULT_ROWS_PAGE),
  ),
});
type RowsPage = z.infer<typeof RowsPageQuery>;

/** The page's bounds in a list of `total` rows, and the next page's address (null after the last). */
function pageBounds(b: BacktestView, list: 'trades' | 'holdings', page: RowsPage, total: number) {
  const end = Math.min(total, page.offset + page.limit);
  const next = end < total ? `/api/v1/backtests/${encodeURIComponent(b.id)}/${list}?offset=${end}&limit=${page.limit}` : null;
  return { end, head: { total, offset: page.offset, limit: page.limit, next } };
}

/** Trades [offset, offset + limit) of a finished backtest's log. */
export async function tradesPageJson(b: BacktestView, page: RowsPage) {
  const r = resultOf(b);
  const { end, head } = pageBounds(b, 'trades', page, r.rows.tradeCount);
  const trades = [];
  for (let from = page.offset; from < end; from += YIELD_ROWS) {
    trades.push(...(await r.rows.tradeSlice(from, Math.min(end, from + YIELD_ROWS))));
    if (from + YIELD_ROWS < end) await nextTurn();
  }
  return { ...head, trades };
}

/** Holding rows [offset, offset + limit) of every rebalance in turn, each with its rebalance's number and dates. */
export async function holdingsPageJson(b: BacktestView, page: RowsPage) {
  const r = resultOf(b);
  const counts = r.rows.holdingCounts;
  const { end, head } = pageBounds(
    b,
    'holdings',
    page,
    counts.reduce((n, c) => n + c, 0),
  );
  const holdings = [];
  let first = 0;
  let sinceYield = 0;
  for (let i = 0; i < counts.length && first < end; first += counts[i++]) {
    if (first + counts[i] <= page.offset) continue;
    const { signalDate, tradeDate } = r.light.rebalances[i];
    const rows = (await r.rows.holdingsOf(i)).slice(Math.max(0, page.offset - first), end - first);
    for (const h of rows) holdings.push({ rebalance: i + 1, signalDate, tradeDate, ...h });
    sinceYield += rows.length;
    if (sinceYield >= YIELD_ROWS) {
      sinceYield = 0;
      await nextTurn();
    }
  }
  return { ...head, holdings };
}

/** A page of a backtest's trades or holdings as `GET /api/v1/backtests/{id}/trades|holdings?offset=&limit=` asks for it. */
export async function rowsPageAnswer(request: Request, b: () => Promise<BacktestView>, list: 'trades' | 'holdings') {
  const parsed = RowsPageQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw unprocessable('Invalid query parameters.', zodFieldErrors(parsed.error));
  const view = await b();
  return list === 'trades' ? tradesPageJson(view, parsed.data) : holdingsPageJson(view, parsed.data);
}

/** Rebalance `n` (1-based, as the page numbers them) of a finished backtest with its holdings. */
export async function rebalanceJson(b: BacktestView, n: number) {
  const r = resultOf(b);
  const count = r.light.rebalances.length;
  if (!(n >= 1 && n <= count)) throw notFound(`There is no rebalance ${n}: this backtest has ${count}.`);
  return { ...rebalanceRow(r.light.rebalances[n - 1], r.rows.holdingCounts[n - 1]), holdings: await r.rows.holdingsOf(n - 1) };
}

/** Rows built between two turns of the event loop (other requests are answered in between). */
const YIELD_ROWS = 2_000;

function resultOf(b: BacktestView): LoadedResult {
  if (!b.result) throw conflict(`This backtest has no result: it is ${b.status}.`);
  return b.result;
}
