import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form } from '@remix-run/react';
import { REBALANCE_FREQUENCIES, WEIGHTINGS } from '~/services/backtest/engine/params';
import { BacktestFormSchema, REBALANCE_LABELS, WEIGHTING_LABELS } from '~/services/backtest/form';
import { FormErrors, SelectField, TextField } from '~/ui/forms/fields';

// The run form of /backtest?screener_id=…: Conform + zod, validated in the browser with
// JavaScript and always on the server; it posts to the page's own address and the action
// redirects to the new backtest.

const REBALANCE_OPTIONS = REBALANCE_FREQUENCIES.map((v) => ({ value: v, label: REBALANCE_LABELS[v] }));
const WEIGHTING_OPTIONS = WEIGHTINGS.map((v) => ({ value: v, label: WEIGHTING_LABELS[v] }));

export function BacktestForm({ defaults, lastResult }: { defaults: Record<string, string>; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: 'backtest-run',
    lastResult,
    defaultValue: defaults,
    constraint: getZodConstraint(BacktestFormSchema),
    shouldValidate: 'onBlur',
    // A fixed field's message goes as it is typed, not on blur: clearing it on blur would move
    // the Run button away from under a pointer that is pressing it.
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BacktestFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="form backtest-form">
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="intent" value="run" />
      <fieldset className="backtest-fieldset">
        <legend>Period and rebalancing</legend>
        <TextField meta={fields.start} label="Start date" type="date" hint="YYYY-MM-DD" />
        <TextField meta={fields.end} label="End date" type="date" hint="YYYY-MM-DD" />
        <SelectField
          meta={fields.rebalance}
          label="Rebalance"
          options={REBALANCE_OPTIONS}
          hint="The screen runs on the first trading day of each period."
        />
      </fieldset>
      <fieldset className="backtest-fieldset">
        <legend>Portfolio</legend>
        <TextField meta={fields.topN} label="Hold the top N passers" hint="A whole number from 1 to 500, or “all”." inputMode="numeric" />
        <SelectField meta={fields.weighting} label="Weighting" options={WEIGHTING_OPTIONS} />
        <TextField meta={fields.maxWeight} label="Maximum weight of one position (%)" hint="Empty for no cap." inputMode="decimal" />
        <TextField meta={fields.initialCapital} label="Initial capital ($)" inputMode="decimal" />
      </fieldset>
      <fieldset className="backtest-fieldset">
        <legend>Costs and benchmark</legend>
        <TextField meta={fields.commissionBps} label="Commission (bps of traded value)" inputMode="decimal" />
        <TextField meta={fields.slippageBps} label="Slippage (bps of traded value)" inputMode="decimal" />
        <TextField meta={fields.fixedCostPerTrade} label="Fixed cost per trade ($)" inputMode="decimal" />
        <TextField meta={fields.riskFreeRate} label="Risk-free rate (% a year)" hint="For Sharpe, Sortino and alpha." inputMode="decimal" />
        <TextField
          meta={fields.benchmark}
          label="Benchmark ticker"
          hint="A ticker or permaticker; empty for the equal-weighted universe of the screen."
        />
      </fieldset>
      <div>
        <button type="submit" className="button button--primary">
          Run backtest
        </button>
      </div>
    </Form>
  );
}
