import { z, type ZodTypeAny } from 'zod';
import { IdParam, IsoDateSchema, named, PermatickerField, TimestampSchema, type ApiOperation, type Fits } from '../http/api-contract';
import { ScreenJson } from '../screener/api-contract';
import type { backtestJson, backtestListJson } from './api.server';
import { BacktestCreateBody, BacktestPatchBody, RowsPageQuery } from './api.server';
import type { holdingsPageJson, rebalanceJson, tradesPageJson } from './api.server';
import { CREATE_WAIT_SECONDS } from './limits';
import { BacktestParamsSchema } from './engine/params';

// The backtest part of the JSON API (api.v1.backtests.*).

const Nullable = z.number().nullable();

const MonthlyReturnJson = z
  .object({
    year: z.number().int(),
    months: z.array(Nullable).length(12).describe('January … December; null where the run has no data'),
    year_return: z.number(),
  })
  .strict();

const StatisticsJson = named(
  'BacktestStatistics',
  z
    .object({
      maxDrawdown: z.number(),
      peakDate: IsoDateSchema.nullable(),
      troughDate: IsoDateSchema.nullable(),
      recoveryDate: IsoDateSchema.nullable(),
      startDate: IsoDateSchema,
      endDate: IsoDateSchema,
      years: z.number(),
      totalReturn: z.number(),
      cagr: z.number(),
      annualVolatility: z.number(),
      sharpe: Nullable,
      sortino: Nullable,
      calmar: Nullable,
      beta: Nullable,
      alpha: Nullable,
      trackingError: Nullable,
      informationRatio: Nullable,
      benchmarkTotalReturn: z.number(),
      benchmarkCagr: z.number(),
      annualTurnover: z.number(),
      hitRate: Nullable,
      hitRateVsBenchmark: Nullable,
      totalCosts: z.number(),
      costDrag: z.number(),
      bestMonth: Nullable,
      worstMonth: Nullable,
      bestYear: Nullable,
      worstYear: Nullable,
      monthlyReturns: z.array(MonthlyReturnJson),
    })
    .strict()
    .describe('Returns and ratios are fractions (0.12 = 12 %)'),
);

const HoldingJson = z
  .object({
    permaticker: PermatickerField,
    ticker: z.string(),
    weight: z.number(),
    rank: z.number().int().nullable(),
    values: z.record(Nullable).describe('The screen’s metrics on the signal date; null = n/a'),
  })
  .strict();

const RebalanceJson = z
  .object({
    signalDate: IsoDateSchema.describe('The close whose data chose the holdings'),
    tradeDate: IsoDateSchema.describe('The next trading day, whose close the trades used'),
    universeCount: z.number().int(),
    passCount: z.number().int(),
    valueBefore: z.number(),
    tradedValue: z.number(),
    cost: z.number(),
    holding_count: z.number().int().describe('Its holdings: GET /api/v1/backtests/{id}/rebalances/{n}'),
  })
  .strict();

const RebalanceWithHoldingsJson = named('BacktestRebalance', RebalanceJson.extend({ holdings: z.array(HoldingJson) }).strict());

const TradeJson = z
  .object({
    date: IsoDateSchema,
    permaticker: PermatickerField,
    ticker: z.string(),
    side: z.enum(['buy', 'sell']),
    reason: z.enum(['rebalance', 'delisted']),
    value: z.number(),
    price: z.number(),
    shares: z.number(),
    cost: z.number(),
  })
  .strict();

const ResultJson = named(
  'BacktestResult',
  z
    .object({
      engineVersion: z.string(),
      params: BacktestParamsSchema,
      dates: z.array(IsoDateSchema),
      equity: z.array(z.number()),
      benchmark: z.array(z.number()),
      drawdown: z.array(z.number()),
      statistics: StatisticsJson,
      delistedHoldings: z.number().int(),
      survivors: z
        .object({
          securities: z.number().int(),
          statistics: StatisticsJson,
          equity: z.array(z.number()),
          delistedExcluded: z.number().int(),
        })
        .strict()
        .nullable()
        .describe('The same screen run on the companies still listed at the end (survivorship bias shown)'),
      rebalances: z.array(RebalanceJson),
      holdings_total: z.number().int().describe('Holding rows of all rebalances'),
      trades_total: z.number().int().describe('Trades in the log: GET /api/v1/backtests/{id}/trades'),
    })
    .strict(),
);

const SummaryJson = z
  .object({
    totalReturn: z.number(),
    cagr: z.number(),
    maxDrawdown: z.number(),
    sharpe: Nullable,
    benchmarkTotalReturn: z.number(),
    survivorsTotalReturn: Nullable,
    startDate: IsoDateSchema,
    endDate: IsoDateSchema,
  })
  .strict();

const STATUS = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);

export const BacktestListItemJson = named(
  'BacktestListItem',
  z
    .object({
      id: z.string(),
      name: z.string(),
      screener_id: z.string().nullable(),
      status: STATUS,
      progress: z.number().describe('0 … 1'),
      created_at: TimestampSchema,
      params: BacktestParamsSchema,
      summary: SummaryJson.nullable(),
    })
    .strict(),
);
const _listItem: Fits<ReturnType<typeof backtestListJson>, typeof BacktestListItemJson> = true;

const BacktestCoreJson = BacktestListItemJson.extend({
  message: z.string().nullable(),
  error: z.string().nullable(),
  finished_at: TimestampSchema.nullable(),
  screen: ScreenJson,
  snapshot_id: z.string().nullable().describe('The market data the run read'),
  engine_version: z.string(),
  share_token: z.string().nullable(),
}).strict();
// The result is checked field by field in the API tests: resultJson spreads the stored result.
const _backtest: Fits<Omit<Awaited<ReturnType<typeof backtestJson>>, 'result'>, typeof BacktestCoreJson> = true;

export const BacktestJson = named(
  'Backtest',
  BacktestCoreJson.extend({ result: ResultJson.nullable().describe('Set once the run has succeeded') }).strict(),
);

/** A page of one of a backtest's row lists: where it is in the list, the next page's address, its rows. */
function rowsPage<K extends string, R extends ZodTypeAny>(name: string, key: K, row: R) {
  return named(
    name,
    z
      .object({
        total: z.number().int(),
        offset: z.number().int(),
        limit: z.number().int(),
        next: z.string().nullable().describe('The next page’s address; null after the last'),
      })
      .extend({ [key]: z.array(row) } as Record<K, z.ZodArray<R>>)
      .strict(),
  );
}

const TradesPageJson = rowsPage('BacktestTrades', 'trades', TradeJson);
const _trades: Fits<Awaited<ReturnType<typeof tradesPageJson>>, typeof TradesPageJson> = true;

const HoldingsPageJson = rowsPage(
  'BacktestHoldings',
  'holdings',
  HoldingJson.extend({
    rebalance: z.number().int().describe('Its rebalance’s number, from 1'),
    signalDate: IsoDateSchema,
    tradeDate: IsoDateSchema,
  }).strict(),
);
const _holdings: Fits<Awaited<ReturnType<typeof holdingsPageJson>>, typeof HoldingsPageJson> = true;
const _rebalance: Fits<Awaited<ReturnType<typeof rebalanceJson>>, typeof RebalanceWithHoldingsJson> = true;

/** The route's body with the screen's and the parameters' own schemas in place (they are read apart). */
const BacktestCreateJson = BacktestCreateBody.innerType().extend({
  screen: ScreenJson.optional().describe('An inline screen (or give screener_id)'),
  params: BacktestParamsSchema,
});

export const BACKTEST_API: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/backtests',
    summary: 'The caller’s backtests, newest first',
    access: 'account',
    query: z.object({ screener_id: z.string().max(64).optional().describe('Only the backtests of this saved screener') }),
    answers: { 200: { description: 'The backtests (without results)', json: z.array(BacktestListItemJson) } },
    errors: [400],
  },
  {
    method: 'post',
    path: '/api/v1/backtests',
    summary: 'Run a backtest of a saved screener or an inline screen',
    description:
      `Waits up to ${CREATE_WAIT_SECONDS} s for the run, or the N seconds of \`Prefer: wait=N\` (at most 30; Preference-Applied: wait=N). ` +
      '`Prefer: respond-async` alone answers 202 at once (Preference-Applied: respond-async).',
    access: 'account',
    body: BacktestCreateJson,
    answers: {
      201: {
        description: 'The run ended within the wait: the backtest with its result (or its error)',
        json: BacktestJson,
      },
      202: {
        description: 'Queued or still running after the wait: poll GET /api/v1/backtests/{id} (also in Location)',
        json: BacktestJson,
      },
    },
    errors: [404, 409, 429],
  },
  {
    method: 'get',
    path: '/api/v1/backtests/{id}',
    summary: 'A backtest: status, progress and, once done, the result',
    access: 'account',
    params: IdParam,
    answers: {
      200: {
        description: 'The backtest; with `Prefer: wait=N` (seconds, at most 30), once its run has ended or N seconds have passed',
        json: BacktestJson,
      },
    },
  },
  {
    method: 'get',
    path: '/api/v1/backtests/{id}/trades',
    summary: 'A page of a finished backtest’s trade log, oldest first',
    access: 'account',
    params: IdParam,
    query: RowsPageQuery,
    answers: { 200: { description: 'Trades offset … offset + limit − 1 and the next page’s address', json: TradesPageJson } },
    errors: [409, 422],
  },
  {
    method: 'get',
    path: '/api/v1/backtests/{id}/holdings',
    summary: 'A page of a finished backtest’s holding rows, rebalance by rebalance',
    access: 'account',
    params: IdParam,
    query: RowsPageQuery,
    answers: { 200: { description: 'Holding rows offset … offset + limit − 1 and the next page’s address', json: HoldingsPageJson } },
    errors: [409, 422],
  },
  {
    method: 'get',
    path: '/api/v1/backtests/{id}/rebalances/{n}',
    summary: 'One rebalance of a finished backtest with its holdings',
    access: 'account',
    params: IdParam.extend({
      n: z
        .string()
        .regex(/^[1-9]\d{0,8}$/)
        .describe('1 for the first rebalance'),
    }),
    answers: { 200: { description: 'The rebalance and its holdings', json: RebalanceWithHoldingsJson } },
    errors: [409],
  },
  {
    method: 'patch',
    path: '/api/v1/backtests/{id}',
    summary: 'Share or unshare a backtest, or cancel its run',
    access: 'account',
    params: IdParam,
    body: BacktestPatchBody,
    answers: { 200: { description: 'The backtest', json: BacktestJson } },
    errors: [409],
  },
  {
    method: 'delete',
    path: '/api/v1/backtests/{id}',
    summary: 'Delete a backtest',
    access: 'account',
    params: IdParam,
    answers: { 204: { description: 'Deleted' } },
  },
];
