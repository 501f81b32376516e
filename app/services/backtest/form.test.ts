import { parseWithZod } from '@conform-to/zod';
import { describe, expect, it } from 'vitest';
import { BacktestParamsSchema } from './engine/params';
import { BacktestFormSchema, formDefaults, formToParams } from './form';

// The run form: typed values in human units become the engine's parameters, defaults go the
// other way, and hostile input gets a message on its field.

function submit(values: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) fd.append(k, v);
  return parseWithZod(fd, { schema: BacktestFormSchema });
}

const params = BacktestParamsSchema.parse({
  start: '2019-01-02',
  end: '2023-12-29',
  topN: 20,
  maxWeight: 0.07,
  riskFreeRate: 0.02,
  commissionBps: 2.5,
  benchmark: 42,
});

describe('backtest form', () => {
  it('round-trips parameters through the form without float noise', () => {
    const defaults = formDefaults(params, 'SPYX');
    expect(defaults).toMatchObject({
      start: '2019-01-02',
      topN: '20',
      maxWeight: '7',
      riskFreeRate: '2',
      commissionBps: '2.5',
      benchmark: 'SPYX',
      intent: 'run',
    });
    const s = submit(defaults);
    expect(s.status).toBe('success');
    if (s.status !== 'success') return;
    expect(formToParams(s.value, 42)).toEqual(params);
    expect(BacktestParamsSchema.parse(formToParams(s.value, 42))).toEqual(params);
  });

  it('reads "all", an empty cap and an empty benchmark', () => {
    const s = submit({ ...formDefaults(params, ''), topN: ' ALL ', maxWeight: '' });
    expect(s.status).toBe('success');
    if (s.status !== 'success') return;
    expect(s.value.benchmark ?? '').toBe('');
    const p = formToParams(s.value, 'equal_weight_universe');
    expect(p).toMatchObject({ topN: 'all', maxWeight: null, benchmark: 'equal_weight_universe' });
  });

  it.each([
    ['start', 'yesterday', 'is not a date'],
    ['start', '2023-02-30', 'is not a date'],
    ['end', '2018-01-01', 'The end date is after the start date'],
    ['topN', '0', 'Hold a whole number from 1 to 500'],
    ['topN', '2.5', 'Hold a whole number'],
    ['topN', '501', 'Hold a whole number'],
    ['topN', '', 'Enter how many to hold'],
    ['rebalance', 'hourly', 'Choose how often'],
    ['weighting', 'vibes', 'Choose a weighting'],
    ['maxWeight', '0', 'above 0 %'],
    ['maxWeight', '150', 'at most 100 %'],
    ['commissionBps', '-1', 'cannot be negative'],
    ['slippageBps', '1e9', 'at most 1000 bps'],
    ['slippageBps', 'lots', 'is a number'],
    ['fixedCostPerTrade', 'Infinity', 'is a number'],
    ['riskFreeRate', '60', 'at most 50 %'],
    ['riskFreeRate', '', 'Enter the risk-free rate'],
    ['initialCapital', '0', 'above 0'],
    ['initialCapital', '1e13', 'at most 1,000,000,000,000'],
    ['benchmark', 'X'.repeat(40), 'at most 32 characters'],
  ])('puts a message on %s for %j', (field, value, message) => {
    const s = submit({ ...formDefaults(params, ''), [field]: value });
    expect(s.status).toBe('error');
    const errors = s.reply().error ?? {};
    expect((errors[field] ?? []).join(' ')).toContain(message);
  });

  it('is at least as strict as the engine: whatever passes gives valid parameters', () => {
    for (const [field, value] of [
      ['maxWeight', '0.0001'],
      ['maxWeight', '100'],
      ['riskFreeRate', '-10'],
      ['riskFreeRate', '50'],
      ['commissionBps', '1000'],
      ['topN', '500'],
      ['initialCapital', '1e12'],
    ]) {
      const s = submit({ ...formDefaults(params, ''), [field]: value });
      expect(s.status, `${field}=${value}`).toBe('success');
      if (s.status === 'success')
        expect(BacktestParamsSchema.safeParse(formToParams(s.value, 'equal_weight_universe')).success, `${field}=${value}`).toBe(true);
    }
  });
});
