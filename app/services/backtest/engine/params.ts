import { z } from 'zod';
import { isIsoDate } from '../../dates';

// Backtest parameters: stored with every result, so the schema is the contract for
// the form, the JSON API and the job. Messages are meant to be shown next to the field.

export const REBALANCE_FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly', 'semiannual', 'annual'] as const;
export const WEIGHTINGS = ['equal', 'market_cap', 'inverse_volatility', 'rank'] as const;
export const MAX_TOP_N = 500;
export const MAX_COST_BPS = 1_000;

const isoDate = z
  .string({ invalid_type_error: 'A date is written YYYY-MM-DD' })
  .refine(isIsoDate, (v) => ({ message: `"${String(v).slice(0, 20)}" is not a date (YYYY-MM-DD)` }));
const bps = (what: string) =>
  z
    .number({ invalid_type_error: `${what} is a number of basis points` })
    .finite(`${what} must be a finite number`)
    .min(0, `${what} cannot be negative`)
    .max(MAX_COST_BPS, `${what} is at most ${MAX_COST_BPS} bps (10 %)`);

export const BacktestParamsSchema = z
  .object({
    start: isoDate,
    end: isoDate,
    rebalance: z
      .enum(REBALANCE_FREQUENCIES, { errorMap: () => ({ message: `Rebalance is one of ${REBALANCE_FREQUENCIES.join(', ')}` }) })
      .default('monthly'),
    /** Hold the best N passers, or every passer. */
    topN: z
      .union(
        [
          z.literal('all'),
          z.number().int('Top N is a whole number').min(1, 'Top N is at least 1').max(MAX_TOP_N, `Top N is at most ${MAX_TOP_N}`),
        ],
        {
          errorMap: (issue, ctx) =>
            issue.code === 'invalid_union'
              ? { message: `Top N is a whole number from 1 to ${MAX_TOP_N}, or "all"` }
              : { message: ctx.defaultError },
        },
      )
      .default(50),
    weighting: z.enum(WEIGHTINGS, { errorMap: () => ({ message: `Weighting is one of ${WEIGHTINGS.join(', ')}` }) }).default('equal'),
    /** Largest weight of one position (0.1 = 10 %); the excess goes to the others, or stays cash. */
    maxWeight: z
      .number({ invalid_type_error: 'The maximum weight is a number' })
      .finite('The maximum weight must be a finite number')
      .gt(0, 'The maximum weight is above 0')
      .lte(1, 'The maximum weight is at most 1 (100 %)')
      .nullable()
      .default(null),
    commissionBps: bps('Commission').default(0),
    slippageBps: bps('Slippage').default(0),
    fixedCostPerTrade: z
      .number({ invalid_type_error: 'The fixed cost per trade is a number' })
      .finite('The fixed cost per trade must be a finite number')
      .min(0, 'The fixed cost per trade cannot be negative')
      .max(1_000_000, 'The fixed cost per trade is at most 1,000,000')
      .default(0),
    /** Annual risk-free rate (0.02 = 2 %), for Sharpe, Sortino and alpha. */
    riskFreeRate: z
      .number({ invalid_type_error: 'The risk-free rate is a number' })
      .finite('The risk-free rate must be a finite number')
      .min(-0.1, 'The risk-free rate is at least -10 %')
      .max(0.5, 'The risk-free rate is at most 50 % (write 0.02 for 2 %)')
      .default(0),
    benchmark: z
      .union(
        [
          z.literal('equal_weight_universe'),
          z.number().int('A benchmark permaticker is a whole number').positive('A benchmark permaticker is positive'),
        ],
        {
          errorMap: (issue, ctx) =>
            issue.code === 'invalid_union'
              ? { message: 'The benchmark is a permaticker or "equal_weight_universe"' }
              : { message: ctx.defaultError },
        },
      )
      .default('equal_weight_universe'),
    initialCapital: z
      .number({ invalid_type_error: 'The initial capital is a number' })
      .finite('The initial capital must be a finite number')
      .positive('The initial capital is above 0')
      .max(1e12, 'The initial capital is at most 1e12')
      .default(10_000),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (isIsoDate(p.start) && isIsoDate(p.end) && p.start >= p.end)
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'The end date is after the start date' });
  });

export type BacktestParams = z.infer<typeof BacktestParamsSchema>;
export type BacktestParamsInput = z.input<typeof BacktestParamsSchema>;
export type Rebalance = BacktestParams['rebalance'];
export type Weighting = BacktestParams['weighting'];

/** Engine version stored with each result: bump when any number could change for the same inputs. */
// 2.1.0: screens see per-share values and market caps on one share basis across splits (metrics engine 3).
// 2.2.0: Q4 EPS from the nine months as filed; splits inferred from share counts too, and only
//        once confirmed (metrics engine 4).
export const BACKTEST_ENGINE_VERSION = '2.2.0';
