import { z } from 'zod';
import { isIsoDate } from '../dates';
import { MAX_COST_BPS, MAX_TOP_N, REBALANCE_FREQUENCIES, WEIGHTINGS, type BacktestParams } from './engine/params';

// The backtest form (Conform + zod, shared by the browser and the action). It speaks in the
// units a person types — percentages for the maximum weight and the risk-free rate, a ticker for
// the benchmark — and is at least as strict as BacktestParamsSchema, so a form that passes here
// never fails there with a message in the other units. Field names are the parameters' names,
// so a service's field errors land on the right input.

export const REBALANCE_LABELS: Record<BacktestParams['rebalance'], string> = {
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  semiannual: 'Every six months',
  annual: 'Yearly',
};

export const WEIGHTING_LABELS: Record<BacktestParams['weighting'], string> = {
  equal: 'Equal weights',
  market_cap: 'Market cap',
  inverse_volatility: 'Inverse volatility',
  rank: 'By rank',
};

const date = (what: string) =>
  z
    .string({ required_error: `Enter the ${what} date (YYYY-MM-DD)` })
    .trim()
    .refine(isIsoDate, (v) => ({ message: `"${v.slice(0, 20)}" is not a date (YYYY-MM-DD)` }));

const number = (what: string, required: string) =>
  z.number({ required_error: required, invalid_type_error: `${what} is a number` }).finite(`${what} is a number`);

const bps = (what: string) =>
  number(what, `Enter the ${what.toLowerCase()} in basis points (0 for none)`)
    .min(0, `${what} cannot be negative`)
    .max(MAX_COST_BPS, `${what} is at most ${MAX_COST_BPS} bps (10 %)`);

export const BacktestFormSchema = z
  .object({
    intent: z.literal('run'),
    start: date('start'),
    end: date('end'),
    rebalance: z.enum(REBALANCE_FREQUENCIES, { errorMap: () => ({ message: 'Choose how often to rebalance' }) }),
    topN: z
      .string({ required_error: `Enter how many to hold: 1 to ${MAX_TOP_N}, or "all"` })
      .trim()
      .toLowerCase()
      .refine((v) => v === 'all' || (/^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_TOP_N), {
        message: `Hold a whole number from 1 to ${MAX_TOP_N}, or "all"`,
      }),
    weighting: z.enum(WEIGHTINGS, { errorMap: () => ({ message: 'Choose a weighting' }) }),
    /** Percent; empty means no cap. */
    maxWeight: number('The maximum weight', '')
      .gt(0, 'The maximum weight is above 0 %')
      .max(100, 'The maximum weight is at most 100 %')
      .optional(),
    commissionBps: bps('Commission'),
    slippageBps: bps('Slippage'),
    fixedCostPerTrade: number('The fixed cost per trade', 'Enter the fixed cost per trade (0 for none)')
      .min(0, 'The fixed cost per trade cannot be negative')
      .max(1_000_000, 'The fixed cost per trade is at most 1,000,000'),
    /** Percent a year. */
    riskFreeRate: number('The risk-free rate', 'Enter the risk-free rate in % a year (0 for none)')
      .min(-10, 'The risk-free rate is at least -10 %')
      .max(50, 'The risk-free rate is at most 50 %'),
    /** A ticker or permaticker; empty means the equal-weighted universe. */
    benchmark: z.string().trim().max(32, 'A ticker has at most 32 characters').optional(),
    initialCapital: number('The initial capital', 'Enter the initial capital')
      .gt(0, 'The initial capital is above 0')
      .max(1e12, 'The initial capital is at most 1,000,000,000,000'),
  })
  .superRefine((v, ctx) => {
    if (isIsoDate(v.start) && isIsoDate(v.end) && v.start >= v.end)
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'The end date is after the start date' });
  });

export type BacktestForm = z.infer<typeof BacktestFormSchema>;

/** Fractions to percent and back without binary noise (0.07 × 100 = 7.000000000000001). */
const toPercent = (fraction: number) => Number((fraction * 100).toPrecision(12));
const fromPercent = (percent: number) => Number((percent / 100).toPrecision(12));

/** The form's initial values from parameters (defaults, or a past run's); `benchmark` as typed. */
export function formDefaults(params: BacktestParams, benchmark: string): Record<string, string> {
  return {
    intent: 'run',
    start: params.start,
    end: params.end,
    rebalance: params.rebalance,
    topN: String(params.topN),
    weighting: params.weighting,
    maxWeight: params.maxWeight === null ? '' : String(toPercent(params.maxWeight)),
    commissionBps: String(params.commissionBps),
    slippageBps: String(params.slippageBps),
    fixedCostPerTrade: String(params.fixedCostPerTrade),
    riskFreeRate: String(toPercent(params.riskFreeRate)),
    benchmark,
    initialCapital: String(params.initialCapital),
  };
}

/** The engine's parameters from a valid form and the benchmark it resolved to. */
export function formToParams(form: BacktestForm, benchmark: BacktestParams['benchmark']): BacktestParams {
  return {
    start: form.start,
    end: form.end,
    rebalance: form.rebalance,
    topN: form.topN === 'all' ? 'all' : Number(form.topN),
    weighting: form.weighting,
    maxWeight: form.maxWeight === undefined ? null : fromPercent(form.maxWeight),
    commissionBps: form.commissionBps,
    slippageBps: form.slippageBps,
    fixedCostPerTrade: form.fixedCostPerTrade,
    riskFreeRate: fromPercent(form.riskFreeRate),
    benchmark,
    initialCapital: form.initialCapital,
  };
}
